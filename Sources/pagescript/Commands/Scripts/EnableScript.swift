import ArgumentParser

struct EnableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a script run automatically again.")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, script in
            try library.setEnabled(true, id: script.id)
        }
    }
}
