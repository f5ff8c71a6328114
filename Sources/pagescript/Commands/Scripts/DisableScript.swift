import ArgumentParser

struct DisableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Stop a script from running automatically (it can still be run by hand).")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        do {
            let library = try libraryOptions.open()
            try library.setEnabled(false, id: library.find(reference).id)
        } catch {
            throw fail(error.description, .badInput)
        }
    }
}
