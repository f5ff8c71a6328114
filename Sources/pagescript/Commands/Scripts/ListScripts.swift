import ArgumentParser
import GMAPI
import SystemSupport
import UserScripts

struct ListScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the scripts: id, name, enabled, when they run, and their site rules.")

    @Option(name: .customLong("for"), help: ArgumentHelp("Only the scripts that would run automatically on this URL, in the order they run.", valueName: "url"))
    var url: String?

    @Flag(name: .long, help: "Print one JSON array: each script's id, name, switches, when it runs and its rules.")
    var json = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let library = try libraryOptions.openForReading()
        var scripts = try library.scripts()
        if let url {
            scripts = try library.which(url: PageURL(url)).map(\.script)
        }
        let files = DependencyCache(libraryDirectory: library.directory)
        if json {
            printOutput(JSONValue.array(scripts.map { ScriptJSON.summary(of: $0, files: files) }).serialized)
        }
        for stored in scripts where !json {
            let rules = stored.interpretation.rules.map(\.description).joined(separator: " ")
            let runs = files.blockReason(for: stored) ?? stored.interpretation.runMode.description
            printOutput([stored.id.rawValue, TerminalSafeText.escaped(stored.name), Self.switches(of: stored),
                         TerminalSafeText.escaped(runs), TerminalSafeText.escaped(rules)].joined(separator: "\t"))
        }
        for problem in try library.problems() {
            printError("pagescript: \(TerminalSafeText.escaped(problem.description))")
        }
    }

    /// `enabled`, `disabled`, or `enabled, off on example.com and shop.example`.
    static func switches(of stored: StoredScript) -> String {
        let state = stored.isEnabled ? "enabled" : "disabled"
        guard !stored.disabledSites.isEmpty else { return state }
        return state + ", off on " + TerminalSafeText.escaped(stored.disabledSites.map(\.description).sorted().joined(separator: " and "))
    }
}
