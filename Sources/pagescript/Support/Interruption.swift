import Foundation
import SystemSupport

/// Stops every process PageScript started when the user presses Ctrl-C or the process is sent
/// SIGTERM or SIGHUP, then exits with 128 + the signal's number.
enum Interruption {
    /// Installs the handling once; `beforeExit` runs first (e.g. to restore the terminal).
    ///
    /// First, what a command of this kind killed with SIGKILL left running (its X server,
    /// driver, browser) is stopped, and this command's own children are marked, so that the next
    /// command can do the same should this one be killed (``LeftoverProcesses``).
    static func install(beforeExit: @escaping @Sendable () -> Void = {}) -> TerminationSignals {
        let stopped = LeftoverProcesses.stopOrphans(of: .command)
        if stopped > 0 { printError("pagescript: stopped \(stopped) processes left running by a pagescript that was killed") }
        LeftoverProcesses.markChildren(as: .command)
        OrphanReaper.adoptOrphans()
        return TerminationSignals { signal in
            beforeExit()
            ChildProcessRegistry.shared.stopAll(grace: 0.3)
            OrphanReaper.stopAllDescendants()
            exit(128 + signal)
        }
    }

    /// Stops whatever a finished command left below this process (detached browser helpers).
    static func sweep() {
        OrphanReaper.stopAllDescendants()
    }
}
