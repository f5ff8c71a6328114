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
        let adopting = pagescript_become_subreaper() == 0
        if adopting { adoption.set() }
        return adopting
    }

    /// Whether this process adopts its orphaned descendants (``adoptOrphans()`` worked).
    public static var isAdopting: Bool {
        adoption.isSet
    }

    private static let adoption = Flag()

    /// A flag set once, read from any thread.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false

        var isSet: Bool {
            lock.lock()
            defer { lock.unlock() }
            return value
        }

        func set() {
            lock.lock()
            value = true
            lock.unlock()
        }
    }

    /// Kills every process below this one (SIGTERM, a short grace, SIGKILL) and reaps them.
    ///
    /// It returns as soon as nothing is left below this process: when this process has no child
    /// left (`waitpid` says so), it has no descendant either, since an orphan is adopted (see
    /// ``adoptOrphans()``) or, where it cannot be, leaves this process's tree. A run's teardown
    /// does not wait out fixed sleeps or read `/proc` again once everything is gone.
    public static func stopAllDescendants(grace: TimeInterval = 0.3) {
        let first = ProcessTree.descendants(of: getpid())
        guard !first.isEmpty else {
            _ = reapExited()
            return
        }
        first.forEach { kill($0, SIGTERM) }
        guard !waitUntilNoChildLeft(for: grace) else { return }
        ProcessTree.descendants(of: getpid()).forEach { kill($0, SIGKILL) }
        _ = waitUntilNoChildLeft(for: 0.5)
    }

    /// Reaps ended children until none is left or `seconds` have passed; whether none is left.
    private static func waitUntilNoChildLeft(for seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if !reapExited() { return true }
            guard Date() < deadline else { return false }
            usleep(2_000)
        }
    }

    /// Collects the exit status of every child that has ended (adopted orphans included).
    ///
    /// - Returns: Whether this process still has children (running ones, or none known: `false`
    ///   only when `waitpid` says there is no child at all).
    @discardableResult
    public static func reapExited() -> Bool {
        var status: Int32 = 0
        while true {
            let result = waitpid(-1, &status, WNOHANG)
            if result > 0 { continue }
            return !(result == -1 && errno == ECHILD)
        }
    }
}
