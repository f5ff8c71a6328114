import ArgumentParser
import UserScripts

struct NewScript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a script in the library and print its ID.")

    @Argument(help: "The script's name (not needed with --from-example, or when the code is a whole .user.js file with its @name).")
    var name: String?

    @Option(name: .customLong("match"), help: ArgumentHelp("A match pattern (repeatable).", valueName: "pattern"))
    var matches: [String] = []

    @OptionGroup var runAtOption: RunAtOption

    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .customLong("from-example"), help: ArgumentHelp("Copy a built-in example into the library.", valueName: "name"))
    var example: String?

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if example != nil, scriptCode.isGiven {
            throw ValidationError("give the code or --from-example NAME, not both")
        }
    }

    func run() async throws {
        let library = try libraryOptions.open()
        let stored: StoredScript
        if let example {
            stored = try library.newFromExample(ExampleCatalog.builtIn().example(named: example))
        } else {
            let code = try scriptCode.read() ?? ""
            let whole = UserScript(text: code, fallbackName: name ?? "Untitled script")
            if whole.hasMetadataBlock {
                // A whole .user.js file is taken as it is, never wrapped in a second block.
                guard matches.isEmpty, runAtOption.runAt == nil else {
                    throw CommandFailure.badInput(
                        "the code has its own ==UserScript== block; put @match and @run-at there, or leave out --match and --run-at")
                }
                var script = whole
                if let name, name != whole.name { try script.setValue(name, forKey: "name") }
                stored = try library.create(script)
            } else {
                guard let name else { throw CommandFailure.badInput("give the script a name, or --from-example NAME") }
                stored = try library.create(UserScript.make(name: name, matches: matches, runAt: runAtOption.runAt, body: code))
            }
        }
        printOutput(stored.id.rawValue)
        // A whole .user.js file may declare @require and @resource files: fetched now, once.
        _ = try await DependencyInstall.fetch(for: [stored], library: library)
    }
}
