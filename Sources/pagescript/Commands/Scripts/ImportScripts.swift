import ArgumentParser
import Foundation
import TerminalText
import UserScripts

struct ImportScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy .user.js files (Tampermonkey, Violentmonkey, Greasemonkey) into the library byte for byte, saying how PageScript reads each.",
        discussion: """
            Standard output has one line per file: imported, unchanged (already in the library) or refused, the \
            script's ID and the file. Standard error has what PageScript concluded about each script: when it \
            runs, rules it narrowed or set aside and why, and the files it asks for. Only files that are not \
            UTF-8 text are refused (exit 1).
            """)

    @Argument(help: "A .user.js file or a folder of them.")
    var path: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let library = try libraryOptions.open()
        let report = try library.importScripts(from: URL(fileURLWithPath: path))
        for entry in report.entries {
            let file = TerminalSafeText.escaped(entry.source.lastPathComponent)
            switch entry.outcome {
            case let .imported(script): printOutput("imported\t\(script.id)\t\(file)")
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
        if !report.refused.isEmpty { throw CommandFailure.scriptsFailed }
    }
}
