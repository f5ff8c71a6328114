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
    /// Descendants of stopped children that may end up this process's to reap (see
    /// ``reapStrays(adding:)``), each with the time after which it is no longer tried.
    private var strays: [pid_t: Date] = [:]
    /// How long a stray is tried: a process that lives on this long after its browser was stopped
    /// is not one of them (its ID may have been given to another process since).
    static let strayLifetime: TimeInterval = 30

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

    /// Reaps the descendants of stopped children that have ended and been handed to this process:
    /// `pids` (the tree of a child just stopped, or whatever is found below this process), and
    /// those kept from earlier calls. Only where this process adopts
    /// orphans (``OrphanReaper/adoptOrphans()``, the executable): there every helper a stopped
    /// browser leaves behind becomes its child when its own parent is gone, and would stay a
    /// zombie until the command ends. One that is still alive, or not handed over yet, is kept
    /// and tried again at the next stop; a registered child is never reaped here (its
    /// ``ChildProcess`` does that), and nothing is waited for.
    public func reapStrays(adding pids: [pid_t]) {
        guard OrphanReaper.isAdopting else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        for pid in pids where childrenByID[pid] == nil { strays[pid] = now.addingTimeInterval(Self.strayLifetime) }
        for (pid, until) in strays {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            // Reaped now; or not this process's child and gone (its parent reaped it).
            let done = result == pid || (result == -1 && errno == ECHILD && kill(pid, 0) != 0)
            if done || until < now || childrenByID[pid] != nil { strays[pid] = nil }
        }
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
