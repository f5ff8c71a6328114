import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct ImportScripts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy userscripts into the library byte for byte: .user.js files, an address, or a Tampermonkey or Violentmonkey backup.",
        discussion: """
            SOURCE is a .user.js file or a folder of them (Tampermonkey, Violentmonkey, Greasemonkey), an http or \
            https address (the script is downloaded; `scripts update` checks that address for new versions when \
            the script names no @downloadURL), or a .zip backup from Violentmonkey or Tampermonkey (the scripts, \
            their values and whether each was enabled; standard error says what else could not be carried over). \
            Standard output has one line per script: imported, updated (a new version of the installed script with \
            the same @name and @namespace, which keeps its ID and values; the old file goes to the trash), \
            unchanged (already in the library) or refused, the script's ID and the file. Standard error has what PageScript concluded about each script: when it \
            runs, rules it narrowed or set aside and why, and the files it asks for. The @require and \
            @resource files are fetched into the library's cache now, once (not on every page load); a \
            script whose files cannot be fetched is imported all the same and does not run until \
            `scripts update` fetches them. A file that is not UTF-8 text is refused (exit 1); a download \
            that fails or a damaged backup imports nothing (exit 1).
            """)

    @Argument(help: ArgumentHelp("A .user.js file, a folder of them, an http(s) address, or a backup's .zip.", valueName: "source"))
    var path: String

    @Flag(name: .customLong("no-fetch"), help: "Do not fetch @require and @resource files now (offline); 'scripts update' fetches them later.")
    var noFetch = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        let library = try libraryOptions.open()
        let result = try await ScriptImporter(library: library).importScripts(from: path, fetchingFiles: !noFetch)
        let source = TerminalSafeText.escaped(URL(fileURLWithPath: path).lastPathComponent)
        for note in result.notes {
            printError("\(source): \(TerminalSafeText.escaped(note))")
        }
        for entry in result.entries {
            let file = TerminalSafeText.escaped(entry.report.source.isFileURL ? entry.report.source.lastPathComponent : entry.report.source.absoluteString)
            switch entry.report.outcome {
            case let .imported(script): printOutput("imported\t\(script.id)\t\(file)")
            case let .updated(script, previous, version):
                printOutput("updated\t\(script.id)\t\(file)")
                for line in ImportReport.updateNotes(script, previousFile: previous, previousVersion: version) {
                    printError("  \(file): \(TerminalSafeText.escaped(line))")
                }
            case let .alreadyInLibrary(id): printOutput("unchanged\t\(id)\t\(file)")
            case let .refused(reason): printOutput("refused\t-\t\(file): \(TerminalSafeText.escaped(reason))")
            }
            for line in (entry.report.interpretation?.importSummary ?? []) + entry.notes {
                printError("  \(file): \(TerminalSafeText.escaped(line))")
            }
        }
        for problem in result.problems {
            printError("pagescript: \(TerminalSafeText.escaped(problem.reason))")
        }
        for fetched in result.fetched {
            printError("  \(fetched.script.id) \(TerminalSafeText.escaped(fetched.script.name)):")
            _ = DependencyInstall.report(fetched.files)
        }
        if !result.report.refused.isEmpty { throw CommandFailure.scriptsFailed }
    }
}
