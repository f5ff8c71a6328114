import ArgumentParser
import SystemSupport
import UserScripts

/// `scripts restore [REF]`: brings a script back from the library's trash, or lists the trash.
struct RestoreScript: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring a script back from the library's trash (deleted, or replaced by an update).",
        discussion: """
            Without a script, lists the trash, the most recently trashed first: ID, name, the file, \
            separated by tabs. With one, moves the most recently trashed file that has that ID or \
            name back into the library, byte for byte, and prints its ID.
            """)

    @Argument(help: ArgumentHelp("The trashed script's name or ID, or its file name in .trash/.", valueName: "script"))
    var reference: String?

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        let library = try libraryOptions.open()
        guard let reference else {
            for trashed in try library.trashedScripts() {
                printOutput([trashed.id.rawValue, TerminalSafeText.escaped(trashed.name),
                             TerminalSafeText.escaped(trashed.path)].joined(separator: "\t"))
            }
            return
        }
        let restored = try library.restore(reference)
        printOutput(restored.id.rawValue)
        printError("restored \(TerminalSafeText.escaped(restored.name)) to \(TerminalSafeText.escaped(restored.file.path(percentEncoded: false)))")
    }
}
