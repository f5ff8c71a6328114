import Foundation

/// Every child process that is still running, so that an interrupted run can stop them all.
///
/// The executable calls ``killAll()`` from its SIGINT and SIGTERM handling: no driver, browser or
/// X server outlives PageScript.
public final class ChildProcessRegistry: @unchecked Sendable {
    /// The registry of this process.
    public static let shared = ChildProcessRegistry()

    private let lock = NSLock()
    private var childrenByID: [pid_t: ChildProcess] = [:]
    /// Set by ``stopAll(grace:)`` and ``killAll()``: the command is ending, and a child started
    /// after its children were gathered would outlive it.
    private var isClosed = false

    /// Runs `spawn` and registers the child it started, both under the registry's lock, so that a
    /// stop gathering the children never misses one being started; refused once the registry is
    /// closed.
    func admit(executable: String, _ spawn: () throws(ChildProcessError) -> ChildProcess) throws(ChildProcessError) -> ChildProcess {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .launchFailed(executable: executable, reason: "PageScript is stopping") }
        let child = try spawn()
        childrenByID[child.processID] = child
        return child
    }

    func unregister(_ child: ChildProcess) {
        lock.lock()
        childrenByID[child.processID] = nil
        lock.unlock()
    }

    /// The children still registered (not yet seen to exit).
    public var children: [ChildProcess] {
        lock.lock()
        defer { lock.unlock() }
        return Array(childrenByID.values)
    }

    /// The process IDs of the children still registered.
    public var livePIDs: [pid_t] {
        lock.lock()
        defer { lock.unlock() }
        return Array(childrenByID.keys)
    }

    /// Stops every registered child's process group (SIGTERM, a short grace, then SIGKILL).
    /// Nothing can be started afterwards.
    public func stopAll(grace: TimeInterval = 0.5) {
        lock.lock()
        isClosed = true
        let all = Array(childrenByID.values)
        lock.unlock()
        for child in all {
            child.stop(grace: grace)
        }
    }

    /// Kills every registered child's process group at once, without waiting.
    /// Nothing can be started afterwards.
    public func killAll() {
        lock.lock()
        isClosed = true
        let all = Array(childrenByID.values)
        lock.unlock()
        for child in all {
            child.killGroupImmediately()
        }
    }
}
