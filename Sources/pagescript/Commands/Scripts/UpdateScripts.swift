import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct UpdateScripts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Update scripts from their @updateURL/@downloadURL (else where they were installed from) and fetch missing @require/@resource files.",
        discussion: """
            A script is replaced only when its author's @version is newer (Tampermonkey's ordering), the \
            old file goes to the library's .trash/ folder, and a file edited since PageScript installed it \
            is left alone unless --force is given. Prints one line per script: updated, current, no-url, \
            edited or failed, the ID, the name and the versions; files fetched or missing are listed on \
            standard error. Exits 1 when a script was not updated as asked or still misses files.
            """)

    @Argument(help: ArgumentHelp("The script's name or ID (all scripts when omitted).", valueName: "script"))
    var reference: String?

    @Flag(name: .long, help: "Replace scripts even if they were edited since PageScript installed them.")
    var force = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        let library = try libraryOptions.open()
        let selected = try reference.map { [try library.find($0)] } ?? library.scripts()
        let cache = DependencyCache(libraryDirectory: library.directory)
        let incomplete = await DependencyFetcher.withFetcher(cache: cache) { fetcher in
            let updater = ScriptUpdater(library: library, fetcher: fetcher)
            var incomplete = false
            for stored in selected {
                let outcome = await updater.update(stored, force: force)
                if !report(outcome, for: stored) { incomplete = true }
            }
            return incomplete
        }
        if incomplete { throw CommandFailure.scriptsFailed }
    }

    /// Prints what happened to one script; returns whether it ended as asked, with every file.
    private func report(_ outcome: ScriptUpdater.Outcome, for stored: StoredScript) -> Bool {
        let head = "\(stored.id)\t\(TerminalSafeText.escaped(stored.name))"
        switch outcome {
        case .updated(let from, let to, _, let previous, let files):
            printOutput("updated\t\(head)\t\(safe(from ?? "-")) -> \(safe(to))")
            printError("  the previous version is in \(safe(previous.path(percentEncoded: false)))")
            return DependencyInstall.report(files)
        case .upToDate(let installed, let available, let files):
            printOutput("current\t\(head)\t\(safe(installed ?? "-"))\(available.map { " (available: \(safe($0)))" } ?? "")")
            return DependencyInstall.report(files)
        case .noUpdateURL(let files):
            printOutput("no-url\t\(head)")
            return DependencyInstall.report(files)
        case .editedLocally(let installed, let available, let neverRecorded):
            printOutput("edited\t\(head)\t\(safe(installed ?? "-")) -> \(safe(available)) not installed")
            let why = neverRecorded
                ? "PageScript did not install this file, so it cannot tell whether it was edited"
                : "the file was edited since PageScript installed it"
            printError("  \(why); `pagescript scripts update \(stored.id) --force` replaces it (the current file goes to .trash/)")
            return false
        case .failed(let reason):
            printOutput("failed\t\(head)\t\(safe(reason))")
            return false
        }
    }

    private func safe(_ text: String) -> String { TerminalSafeText.escaped(text) }
}
