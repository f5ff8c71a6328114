import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct ImportScripts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy .user.js files (Tampermonkey, Violentmonkey, Greasemonkey) into the library byte for byte, saying how PageScript reads each.",
        discussion: """
            Standard output has one line per file: imported, updated (a new version of the installed script with \
            the same @name and @namespace, which keeps its ID and values; the old file goes to the trash), \
            unchanged (already in the library) or refused, the script's ID and the file. Standard error has what PageScript concluded about each script: when it \
            runs, rules it narrowed or set aside and why, and the files it asks for. The @require and \
            @resource files are fetched into the library's cache now, once (not on every page load); a \
            script whose files cannot be fetched is imported all the same and does not run until \
            `scripts update` fetches them. Only files that are not UTF-8 text are refused (exit 1).
            """)

    @Argument(help: "A .user.js file or a folder of them.")
    var path: String

    @Flag(name: .customLong("no-fetch"), help: "Do not fetch @require and @resource files now (offline); 'scripts update' fetches them later.")
    var noFetch = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        let library = try libraryOptions.open()
        let report = try library.importScripts(from: URL(fileURLWithPath: path))
        for entry in report.entries {
            let file = TerminalSafeText.escaped(entry.source.lastPathComponent)
            switch entry.outcome {
            case let .imported(script): printOutput("imported\t\(script.id)\t\(file)")
            case let .updated(script, previous, version):
                printOutput("updated\t\(script.id)\t\(file)")
                for line in ImportReport.updateNotes(script, previousFile: previous, previousVersion: version) {
                    printError("  \(file): \(TerminalSafeText.escaped(line))")
                }
            case let .alreadyInLibrary(id): printOutput("unchanged\t\(id)\t\(file)")
            case let .refused(reason): printOutput("refused\t-\t\(file): \(TerminalSafeText.escaped(reason))")
            }
            for line in entry.interpretation?.importSummary ?? [] {
                printError("  \(file): \(TerminalSafeText.escaped(line))")
            }
        }
        for problem in try library.problems() where problem.path == library.publicSuffixListPath {
            printError("pagescript: \(TerminalSafeText.escaped(problem.reason))")
        }
        if !noFetch {
            _ = try await DependencyInstall.fetch(for: report.imported, library: library)
        }
        if !report.refused.isEmpty { throw CommandFailure.scriptsFailed }
    }
}
