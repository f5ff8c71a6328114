import ArgumentParser
import UserScripts

struct SaveScriptForSite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save-for",
        abstract: "Create or update the script for a page's site; 'pagescript edit' loads it on that site.")

    @Argument(help: "A URL on the site.")
    var url: String

    @OptionGroup var scriptCode: ScriptCodeOptions

    @OptionGroup var runAtOption: RunAtOption

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        guard scriptCode.isGiven else { throw ValidationError("give the code: -e CODE, -f FILE or -") }
    }

    func run() throws {
        let page = try PageURL(url)
        let body = try scriptCode.read() ?? ""
        let library = try libraryOptions.open()
        let stored = try library.saveForSite(url: page, code: body, runAt: runAtOption.runAt, basedOn: library.scriptForSite(url: page))
        printOutput(stored.id.rawValue)
    }
}
