import ArgumentParser
import GMAPI
import SystemSupport
import UserScripts

struct WhichScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "The scripts that would run automatically on a URL, in the order they run, each with the rule that matched.",
        discussion: """
            One line per script: ID, name, when it runs, and the rule that matched with how PageScript reads \
            it, separated by tabs. Scripts run by @run-at (document-start, document-body, document-end, \
            document-idle), then by name. With --all, every script of the library, and for each one that \
            does not run, why: which rule excluded the page, or that none of its rules names it.
            """)

    @Argument(help: "The page's URL.")
    var url: String

    @Flag(name: .long, help: "List every script: those that match but would not run (disabled, on demand only, not in frames) and, with the reason, those that do not match.")
    var all = false

    @Flag(name: .long, help: "Print one JSON array: each script's id, name, whether it runs, its status and the reason.")
    var json = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let page = try PageURL(url)
        let library = try libraryOptions.openForReading()
        let explained = try library.explain(url: page)
        let files = DependencyCache(libraryDirectory: library.directory)
        // A script whose declared files are missing runs nowhere until they are fetched.
        let blocked = Dictionary(uniqueKeysWithValues: explained.filter(\.runsAutomatically).compactMap { entry in
            files.blockReason(for: entry.script).map { (entry.script.id, $0) }
        })
        if json {
            printOutput(JSONValue.array(explained.filter { all || $0.runsAutomatically }.map { ScriptJSON.onPage($0, files: files) }).serialized)
        }
        for entry in explained where !json && (all || entry.runsAutomatically) {
            let (status, reason) = entry.explanation
            let shown = blocked[entry.script.id].map { ($0, reason) } ?? (status, reason)
            printOutput([entry.script.id.rawValue, entry.script.name, shown.0, shown.1].map(TerminalSafeText.escaped).joined(separator: "\t"))
        }
        if !explained.contains(where: { $0.runsAutomatically && blocked[$0.script.id] == nil }) {
            let hint = all || explained.isEmpty ? "" : " (`pagescript scripts which URL --all` says why of each script)"
            printError("pagescript: no script runs automatically on \(TerminalSafeText.escaped(page.description))\(hint)")
        }
        for problem in try library.problems() where problem.path == library.publicSuffixListPath {
            printError("pagescript: \(TerminalSafeText.escaped(problem.reason))")
        }
    }
}
