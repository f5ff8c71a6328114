import ArgumentParser
import UserScripts

struct NewScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a script in the library and print its ID.")

    @Argument(help: "The script's name (not needed with --from-example).")
    var name: String?

    @Option(name: .customLong("match"), help: "A match pattern (repeatable).")
    var matches: [String] = []

    @Option(name: .customLong("run-at"), help: "document-start, document-body, document-end or document-idle (default: document-idle when the script has --match patterns; without them it runs on demand).")
    var runAt: RunAt?

    @Option(name: .customShort("e"), help: "The script's code.")
    var code: String?

    @Option(name: .customShort("f"), help: "A file holding the script's code, or a whole .user.js file.")
    var file: String?

    @Option(name: .customLong("from-example"), help: "Copy a built-in example into the library.")
    var example: String?

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        do {
            let library = try libraryOptions.open()
            let stored: StoredScript
            if let example {
                stored = try library.newFromExample(ExampleCatalog.builtIn().example(named: example))
            } else {
                guard let name else { throw fail("give the script a name, or --from-example NAME", .badInput) }
                let body: String
                do {
                    body = try ScriptSource.read(code: code ?? (file == nil ? "" : nil), file: file, standardInput: false)
                } catch {
                    throw fail("\(error)", .badInput)
                }
                let script: UserScript
                do {
                    script = try UserScript.make(name: name, matches: matches, runAt: runAt, body: body)
                } catch {
                    throw fail(error.description, .badInput)
                }
                stored = try library.create(script)
            }
            printOutput(stored.id.rawValue)
        } catch let error as LibraryError {
            throw fail(error.description, .badInput)
        }
    }
}

extension RunAt: ExpressibleByArgument {}
