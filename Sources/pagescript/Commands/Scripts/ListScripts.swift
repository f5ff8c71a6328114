import ArgumentParser
import TerminalText
import UserScripts

struct ListScripts: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the scripts: id, name, enabled, patterns.")

    @Option(name: .customLong("for"), help: "Only the scripts that would run automatically on this URL.")
    var url: String?

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let library = try libraryOptions.open()
        var scripts = try library.scripts()
        if let url {
            let ids = Set(try library.which(url: PageURL(url)).filter(\.runsAutomatically).map(\.script.id))
            scripts = scripts.filter { ids.contains($0.id) }
        }
        for stored in scripts {
            let patterns = stored.script.siteRules.map(\.description).joined(separator: " ")
            printOutput([stored.id.rawValue, TerminalSafeText.escaped(stored.name), stored.isEnabled ? "enabled" : "disabled",
                         TerminalSafeText.escaped(patterns.isEmpty ? "(on demand only)" : patterns)].joined(separator: "\t"))
        }
        for problem in try library.problems() {
            printError("pagescript: skipped \(TerminalSafeText.escaped(problem.description))")
        }
    }
}
