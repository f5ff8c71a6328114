import ArgumentParser

struct RemoveScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Move a script to the library's trash folder.")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        do {
            let library = try libraryOptions.open()
            let trashed = try library.delete(id: library.find(reference).id)
            printError("moved to \(TerminalSafeTextBridge.escaped(trashed.path))")
        } catch {
            throw fail(error.description, .badInput)
        }
    }
}
