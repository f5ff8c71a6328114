import ArgumentParser
import TerminalText
import UserScripts

struct WhichScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which", abstract: "The scripts that would run automatically on a URL, each with the pattern that matched.")

    @Argument(help: "The page's URL.")
    var url: String

    @Flag(name: .long, help: "Also list matching scripts that would not run (disabled, on demand only, not in frames).")
    var all = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let page = try PageURL(url)
        for match in try libraryOptions.open().which(url: page, includingInactive: all) {
            printOutput([match.script.id.rawValue, TerminalSafeText.escaped(match.script.name),
                         TerminalSafeText.escaped(match.pattern.text), Self.describe(match.status)].joined(separator: "\t"))
        }
    }

    static func describe(_ status: ScriptMatch.Status) -> String {
        switch status {
        case let .runs(runAt): "runs at \(runAt)"
        case .onDemandOnly: "on demand only"
        case .disabled: "disabled"
        case let .disabledOnSite(site): "disabled on \(site)"
        case .notInFrames: "not in frames"
        }
    }
}
