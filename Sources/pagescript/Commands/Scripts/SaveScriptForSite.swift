import ArgumentParser
import SystemSupport
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
        let previous = try library.scriptForSite(url: page)
        let stored = try library.saveForSite(url: page, code: body, runAt: runAtOption.runAt, basedOn: previous, keepingPrevious: true)
        if let previous {
            printError("pagescript: the previous text of \(TerminalSafeText.escaped(previous.name)) is in the library's trash (pagescript scripts restore lists it)")
        }
        printOutput(stored.id.rawValue)
    }
}
