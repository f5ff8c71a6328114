import ArgumentParser
import UserScripts

struct NewScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a script in the library and print its ID.")

    @Argument(help: "The script's name (not needed with --from-example).")
    var name: String?

    @Option(name: .customLong("match"), help: "A match pattern (repeatable).")
    var matches: [String] = []

    @OptionGroup var runAtOption: RunAtOption

    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .customLong("from-example"), help: "Copy a built-in example into the library.")
    var example: String?

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if example != nil, scriptCode.isGiven {
            throw ValidationError("give the code or --from-example NAME, not both")
        }
    }

    func run() throws {
        let library = try libraryOptions.open()
        let stored: StoredScript
        if let example {
            stored = try library.newFromExample(ExampleCatalog.builtIn().example(named: example))
        } else {
            guard let name else { throw CommandFailure.badInput("give the script a name, or --from-example NAME") }
            let body = try scriptCode.read() ?? ""
            stored = try library.create(UserScript.make(name: name, matches: matches, runAt: runAtOption.runAt, body: body))
        }
        printOutput(stored.id.rawValue)
    }
}
