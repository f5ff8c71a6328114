import ArgumentParser
import Foundation
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
        let library: ScriptLibrary
        let report: ImportReport
        do {
            library = try libraryOptions.open()
            report = try library.importScripts(from: URL(fileURLWithPath: path))
        } catch {
            throw fail(error.description, .badInput)
        }
        for entry in report.entries {
            let file = TerminalSafeTextBridge.escaped(entry.source.lastPathComponent)
            switch entry.outcome {
            case let .imported(script): printOutput("imported\t\(script.id)\t\(file)")
            case let .alreadyInLibrary(id): printOutput("unchanged\t\(id)\t\(file)")
            case let .refused(reason): printOutput("refused\t-\t\(file): \(TerminalSafeTextBridge.escaped(reason))")
            }
            for line in entry.interpretation?.importSummary ?? [] {
                printError("  \(file): \(TerminalSafeTextBridge.escaped(line))")
            }
        }
        if let problems = try? library.problems() {
            for problem in problems where problem.path == library.publicSuffixListPath {
                printError("pagescript: \(TerminalSafeTextBridge.escaped(problem.reason))")
            }
        }
        if !report.refused.isEmpty { throw ExitCode.scriptFailed }
    }
}
