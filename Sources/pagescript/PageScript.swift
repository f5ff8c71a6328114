import ArgumentParser
import Foundation
import TerminalText

/// The `pagescript` command: run your own JavaScript on web pages in real browser engines.
@main
struct PageScript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pagescript",
        abstract: "Run your own JavaScript on web pages, in real browser engines.",
        version: "0.1.0",
        subcommands: [Run.self, BatchCommand.self, Edit.self, Scripts.self, Examples.self, Match.self, Engines.self, Bench.self]
    )

    /// Parses and runs the command. Whatever a command throws ends the process here, with the
    /// message escaped for the terminal and the exit code ``ExitStatus`` gives it.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if error is CleanExit || error is ExitCode {
                exit(withError: error)
            }
            if exitCode(for: error) == .validationFailure {
                // A usage error: the documented code is 2, not ArgumentParser's 64.
                printError(fullMessage(for: error))
                Foundation.exit(ExitStatus.badInput)
            }
            let message = String(describing: error)
            if !message.isEmpty {
                printError("pagescript: \(TerminalSafeText.escaped(message))")
            }
            Foundation.exit(ExitStatus.code(for: error))
        }
    }
}
