import ArgumentParser

/// The `pagescript` command: run your own JavaScript on web pages in real browser engines.
@main
struct PageScript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pagescript",
        abstract: "Run your own JavaScript on web pages, in real browser engines.",
        version: "0.1.0",
        subcommands: [Run.self, Engines.self]
    )
}
