import ArgumentParser
import Foundation
import TerminalText
import UserScripts

struct ImportScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import .user.js files (Tampermonkey, Violentmonkey, Greasemonkey), reporting what was refused and why.")

    @Argument(help: "A .user.js file or a folder of them.")
    var path: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let report = try libraryOptions.open().importScripts(from: URL(fileURLWithPath: path))
        for entry in report.entries {
            let file = TerminalSafeText.escaped(entry.source.lastPathComponent)
            switch entry.outcome {
            case let .imported(script): printOutput("imported\t\(script.id)\t\(file)")
            case let .alreadyInLibrary(id): printOutput("unchanged\t\(id)\t\(file)")
            case let .refused(reason): printOutput("refused\t-\t\(file): \(TerminalSafeText.escaped(reason))")
            }
            for note in entry.notes {
                printError("  \(file): \(TerminalSafeText.escaped(note.description))")
            }
        }
        if !report.refused.isEmpty { throw CommandFailure.scriptsFailed }
    }
}
