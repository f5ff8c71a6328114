import ArgumentParser

struct EnableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a script run automatically again.")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        do {
            let library = try libraryOptions.open()
            try library.setEnabled(true, id: library.find(reference).id)
        } catch {
            throw fail(error.description, .badInput)
        }
    }
}
