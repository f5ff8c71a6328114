import Foundation
import SystemSupport

/// How a command ends early: on Ctrl-C, SIGTERM or SIGHUP, and when the reader of its output went
/// away, it stops every process PageScript started, then exits with 128 + the signal's number
/// (141 for the reader: SIGPIPE's number, as a shell shows it for any program).
enum Interruption {
    /// Takes charge of the command's processes (``CommandSupervision``) and handles the
    /// termination signals; `beforeExit` runs first (e.g. to restore the terminal).
    static func install(beforeExit: @escaping @Sendable () -> Void = {}) -> TerminationSignals {
        let stopped = CommandSupervision.takeCharge(as: .command)
        if stopped > 0 { printError("pagescript: stopped \(stopped) processes left running by a pagescript that was killed") }
        return TerminationSignals { signal in
            beforeExit()
            CommandSupervision.stopEverything()
            exit(128 + signal)
        }
    }

    /// Stops whatever a finished command left below this process (detached browser helpers).
    static func sweep() {
        CommandSupervision.sweep()
    }

    /// The reader of standard output or error went away: stops everything and exits with 141.
    static func endForClosedReader() -> Never {
        CommandSupervision.stopEverything()
        exit(128 + SIGPIPE)
    }
}
