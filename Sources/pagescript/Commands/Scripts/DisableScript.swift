import ArgumentParser

struct DisableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Stop a script from running automatically (it can still be run by hand).")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, script in
            try library.setEnabled(false, id: script.id)
        }
    }
}
