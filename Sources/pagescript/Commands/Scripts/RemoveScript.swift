import ArgumentParser
import SystemSupport

struct RemoveScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Move a script to the library's trash folder.")

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, script in
            let trashed = try library.delete(id: script.id)
            printError("moved to \(TerminalSafeText.escaped(trashed.path))")
        }
    }
}
