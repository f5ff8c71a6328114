import ArgumentParser

/// The `pagescript` command: run your own JavaScript on web pages in real browser engines.
@main
struct PageScript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pagescript",
        abstract: "Run your own JavaScript on web pages, in real browser engines.",
        version: "0.1.0",
        subcommands: [Run.self, BatchCommand.self, Edit.self, Scripts.self, Examples.self, Match.self, Engines.self, Bench.self]
    )

    /// Parses and runs the command; usage errors exit with 2, as the documented exit codes say.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                exit(withError: ExitCode.badInput)
            }
            exit(withError: error)
        }
    }
}
