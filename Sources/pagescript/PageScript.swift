import ArgumentParser
import Foundation
import PageRuntime
import SystemSupport

/// The `pagescript` command: run your own JavaScript on web pages in real browser engines.
@main
struct PageScript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pagescript",
        abstract: "Run your own JavaScript on web pages, in real browser engines.",
        version: ProductVersion.current,
        subcommands: [Run.self, BatchCommand.self, Edit.self, Browse.self, Scripts.self, Examples.self, Match.self, Engines.self, Bench.self]
    )

    /// Parses and runs the command. Whatever a command throws ends the process here, with the
    /// message escaped for the terminal and the exit code ``ExitStatus`` gives it.
    static func main() async {
        CommandSupervision.reportClosedReadersAsErrors()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitForCommandLine(error)
        }
        if command is PageScript {
            // No subcommand: a short usage, as for any other incomplete command line.
            printError("usage: pagescript <subcommand> [options]; 'pagescript --help' lists the subcommands")
            Foundation.exit(ExitStatus.badInput)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Help and --version reach here as ArgumentParser's own errors from its help command.
            if error is CleanExit || error is ExitCode || exitCode(for: error) == .success {
                exit(withError: error)
            }
            let message = String(describing: error)
            if !message.isEmpty {
                printLines(ReportRenderer.messageLines(message))
            }
            Foundation.exit(ExitStatus.code(for: error))
        }
    }

    /// Ends the process for a command line that could not be parsed: help and `--version` as
    /// ArgumentParser prints them (exit 0), a usage error with its message and exit 2 (not
    /// ArgumentParser's 64, so that every command has the README's one table).
    private static func exitForCommandLine(_ error: any Error) -> Never {
        guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
        printError(fullMessage(for: error))
        Foundation.exit(ExitStatus.badInput)
    }
}
