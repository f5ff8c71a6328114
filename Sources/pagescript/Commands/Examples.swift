import ArgumentParser
import UserScripts

/// `pagescript examples [show NAME]`: the built-in example scripts.
struct Examples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "examples",
        abstract: "List the built-in example scripts, or show one.",
        subcommands: [ListExamples.self, ShowExample.self],
        defaultSubcommand: ListExamples.self)
}

struct ListExamples: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in examples.")

    func run() throws {
        let catalog = try ExampleCatalog.builtIn()
        let width = catalog.examples.map(\.id.count).max() ?? 0
        for example in catalog.examples {
            printOutput(example.id.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (example.summary ?? example.name))
        }
    }
}

struct ShowExample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print an example's code.")

    @Argument(help: "The example's name.")
    var name: String

    func run() throws {
        let example = try ExampleCatalog.builtIn().example(named: name)
        print(example.script.text, terminator: example.script.text.hasSuffix("\n") ? "" : "\n")
    }
}
