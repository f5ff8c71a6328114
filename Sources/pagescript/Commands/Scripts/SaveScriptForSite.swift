import ArgumentParser
import UserScripts

struct SaveScriptForSite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save-for",
        abstract: "Create or update the script for a page's site; 'pagescript edit' loads it on that site.")

    @Argument(help: "A URL on the site.")
    var url: String

    @Option(name: .customShort("e"), help: "The script's code.")
    var code: String?

    @Option(name: .customShort("f"), help: "A file holding the script's code.")
    var file: String?

    @Option(name: .customLong("run-at"), help: "Run automatically at document-start, document-end or document-idle (default: on demand).")
    var runAt: RunAt?

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        guard (code == nil) != (file == nil) else { throw ValidationError("give the code: -e CODE or -f FILE") }
    }

    func run() throws {
        let page = try PageURL(url)
        let body = try ScriptSource.read(code: code, file: file, standardInput: false)
        let library = try libraryOptions.open()
        let stored = try library.saveForSite(url: page, code: body, runAt: runAt, basedOn: library.scriptForSite(url: page))
        printOutput(stored.id.rawValue)
    }
}
