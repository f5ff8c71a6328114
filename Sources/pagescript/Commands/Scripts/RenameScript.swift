import ArgumentParser
import UserScripts

struct RenameScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a script (its ID and file stay).")

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @Argument(help: ArgumentHelp("The new name.", valueName: "new-name"))
    var newName: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, stored in
            var renamed = stored
            try renamed.script.setValue(newName, forKey: "name")
            _ = try library.save(renamed)
        }
    }
}
