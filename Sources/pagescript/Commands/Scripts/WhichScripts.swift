import ArgumentParser
import SystemSupport
import UserScripts

struct WhichScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "The scripts that would run automatically on a URL, in the order they run, each with the rule that matched.",
        discussion: """
            One line per script: ID, name, when it runs, and the rule that matched with how PageScript reads \
            it, separated by tabs. Scripts run by @run-at (document-start, document-body, document-end, \
            document-idle), then by name.
            """)

    @Argument(help: "The page's URL.")
    var url: String

    @Flag(name: .long, help: "Also list matching scripts that would not run (disabled, on demand only, not in frames).")
    var all = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let page = try PageURL(url)
        let library = try libraryOptions.openForReading()
        for match in try library.which(url: page, includingInactive: all) {
            let rule = "line \(match.rule.line): \(match.rule) as \(match.pattern)"
            printOutput([match.script.id.rawValue, TerminalSafeText.escaped(match.script.name), Self.describe(match.status),
                         TerminalSafeText.escaped(rule)].joined(separator: "\t"))
        }
        for problem in try library.problems() where problem.path == library.publicSuffixListPath {
            printError("pagescript: \(TerminalSafeText.escaped(problem.reason))")
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
