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

    @Option(name: .customLong("run-at"), help: "When the script runs on the site: document-start, document-body, document-end or document-idle (default: document-idle).")
    var runAt: RunAt?

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        guard (code == nil) != (file == nil) else { throw ValidationError("give the code: -e CODE or -f FILE") }
    }

    func run() throws {
        let page: PageURL
        do { page = try PageURL(url) } catch { throw fail(error.description, .badInput) }
        let body: String
        do { body = try ScriptSource.read(code: code, file: file, standardInput: false) } catch { throw fail("\(error)", .badInput) }
        do {
            let library = try libraryOptions.open()
            let stored = try library.saveForSite(url: page, code: body, runAt: runAt, basedOn: library.scriptForSite(url: page))
            printOutput(stored.id.rawValue)
        } catch {
            throw fail(error.description, .scriptFailed)
        }
    }
}
