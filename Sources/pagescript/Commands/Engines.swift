import ArgumentParser
import Engines
import SystemSupport

/// `pagescript engines`: which engines are installed, the versions of their drivers and
/// browsers, and how to get the rest.
struct Engines: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engines",
        abstract: "List the browser engines: whether each is installed, the versions of its driver and browser, and how to install it.")

    @Flag(name: .long, help: "Print one JSON array: each engine, whether it is installed, its programs and their versions.")
    var json = false

    func run() async throws {
        if json {
            return printOutput(JSONValue.array(EngineInventory.survey().map(\.json)).serialized)
        }
        for inventory in EngineInventory.survey() {
            inventory.lines.forEach(printOutput)
        }
    }
}
