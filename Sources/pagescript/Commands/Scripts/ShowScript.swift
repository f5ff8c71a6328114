import ArgumentParser

struct ShowScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a script's file.")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { _, stored in
            let text = stored.script.text
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        }
    }
}
