import ArgumentParser
import Engines

/// `pagescript engines`: which engines are installed, the versions of their drivers and
/// browsers, and how to get the rest.
struct Engines: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engines",
        abstract: "List the browser engines: whether each is installed, the versions of its driver and browser, and how to install it.")

    func run() async throws {
        for inventory in EngineInventory.survey() {
            inventory.lines.forEach(printOutput)
        }
    }
}
