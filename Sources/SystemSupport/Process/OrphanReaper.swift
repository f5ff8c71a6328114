import CSystemSupport
import Foundation

/// Keeps processes that detach themselves (a browser's crash reporter double-forks to leave its
/// parent) below this process, so that they are stopped with everything else.
///
/// Only the executable uses this: it owns its whole process tree. A library caller may share the
/// process with other work and must not sweep it.
public enum OrphanReaper {
    /// Makes this process the reaper of its orphaned descendants (Linux only; a no-op elsewhere).
    /// Returns whether that worked.
    @discardableResult
    public static func adoptOrphans() -> Bool {
        pagescript_become_subreaper() == 0
    }

    /// Kills every process below this one (SIGTERM, a short grace, SIGKILL) and reaps them.
    public static func stopAllDescendants(grace: TimeInterval = 0.3) {
        let first = ProcessTree.descendants(of: getpid())
        guard !first.isEmpty else { return }
        first.forEach { kill($0, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, !ProcessTree.descendants(of: getpid()).isEmpty {
            reapExited()
            usleep(10_000)
        }
        ProcessTree.descendants(of: getpid()).forEach { kill($0, SIGKILL) }
        usleep(10_000)
        reapExited()
    }

    /// Collects the exit status of every child that has ended (adopted orphans included).
    public static func reapExited() {
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 {}
    }
}
