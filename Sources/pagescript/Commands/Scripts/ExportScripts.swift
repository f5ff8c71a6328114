import ArgumentParser
import Foundation
import SystemSupport
import UserScripts

struct ExportScripts: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Copy the library's scripts into a folder as .user.js files.")

    @Argument(help: "The destination folder.")
    var folder: String

    @Flag(name: .long, help: "Replace files that already exist there with different content.")
    var replace = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let report = try libraryOptions.openForReading().export(to: URL(fileURLWithPath: folder), replacingExisting: replace)
        var refused = false
        for entry in report.entries {
            switch entry.outcome {
            case .written: printOutput("written\t\(entry.id)\t\(TerminalSafeText.escaped(entry.destination.path))")
            case .unchanged: printOutput("unchanged\t\(entry.id)\t\(TerminalSafeText.escaped(entry.destination.path))")
            case let .refused(reason):
                refused = true
                printOutput("refused\t\(entry.id)\t\(TerminalSafeText.escaped(reason))")
            }
        }
        if refused { throw CommandFailure.scriptsFailed }
    }
}
