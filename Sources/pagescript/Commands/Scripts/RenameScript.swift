import ArgumentParser
import UserScripts

struct RenameScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a script (its ID and file stay).")

    @Argument(help: "The script's name or ID.")
    var reference: String

    @Argument(help: "The new name.")
    var newName: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        do {
            let library = try libraryOptions.open()
            var stored = try library.find(reference)
            do {
                try stored.script.setValue(newName, forKey: "name")
            } catch {
                throw fail(error.description, .badInput)
            }
            _ = try library.save(stored)
        } catch let error as LibraryError {
            throw fail(error.description, .scriptFailed)
        }
    }
}
