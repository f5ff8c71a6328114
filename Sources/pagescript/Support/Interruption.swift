import Foundation
import SystemSupport

/// Stops every process PageScript started when the user presses Ctrl-C or the process is sent
/// SIGTERM or SIGHUP, then exits with 128 + the signal's number.
enum Interruption {
    /// Installs the handling once; `beforeExit` runs first (e.g. to restore the terminal).
    static func install(beforeExit: @escaping @Sendable () -> Void = {}) -> TerminationSignals {
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
