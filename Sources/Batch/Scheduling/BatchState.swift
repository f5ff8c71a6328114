import Foundation

/// The shared, lock-guarded state of a running batch: whether it is stopping and why, the
/// sessions open, the counts behind ``BatchProgress``, and the memory-limit kills not yet
/// reported. Read from workers, the ticker and the signal handler alike.
final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false
    private var abandoning = false
    private var ending: BatchEnding?
    private var sessions: [Int: OpenedSession] = [:]
    private var inFlight = 0
    private var waiting: Set<Int> = []
    private var waitReason: String?
    private var everOpened = false
    private var failuresBeforeFirstSession = 0
    private var retried = 0
    private var memoryKills: [Int: String] = [:]
    private var workers: Task<Void, Never>?
    /// When the last session closed (or the batch started), while none is open.
    private var withoutSessionSince = MonotonicClock.now()

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Stopping

    /// Whether no new page should start.
    var isStopping: Bool { locked { stopRequested } }

    /// Whether pages still running are being given up.
    var isAbandoning: Bool { locked { abandoning } }

    /// Asks the batch to stop for `ending` (the first ending given is kept). Returns whether this
    /// was the first request.
    func requestStop(_ ending: BatchEnding) -> Bool {
        locked {
            if self.ending == nil { self.ending = ending }
            guard !stopRequested else { return false }
            stopRequested = true
            return true
        }
    }

    /// Why the batch stopped early, if it did.
    var stopEnding: BatchEnding? { locked { ending } }

    /// Keeps the task running the workers, so that abandoning can cancel it.
    func setWorkers(_ task: Task<Void, Never>) {
        let cancelNow = locked { () -> Bool in
            workers = task
            return abandoning
        }
        if cancelNow { task.cancel() }
    }

    /// Gives up the pages still running: their workers are cancelled and record nothing.
    func abandon() {
        let task = locked { () -> Task<Void, Never>? in
            abandoning = true
            return workers
        }
        task?.cancel()
    }

    // MARK: Sessions

    /// Notes a session opened for its slot.
    func opened(_ session: OpenedSession) {
        locked {
            sessions[session.slot] = session
            everOpened = true
            waiting.remove(session.slot)
            if waiting.isEmpty { waitReason = nil }
        }
    }

    /// Forgets the session of `slot` (it is being retired) and returns it.
    func closing(slot: Int) -> OpenedSession? {
        locked {
            let session = sessions.removeValue(forKey: slot)
            if session != nil, sessions.isEmpty { withoutSessionSince = MonotonicClock.now() }
            return session
        }
    }

    /// Seconds since the batch last had a session open; 0 while one is.
    func secondsWithoutAnySession(now: Double) -> Double {
        locked { sessions.isEmpty ? now - withoutSessionSince : 0 }
    }

    /// Every session still open, forgotten here (the batch is ending).
    func takeAllSessions() -> [OpenedSession] {
        locked {
            let all = Array(sessions.values)
            sessions.removeAll()
            return all
        }
    }

    /// Notes that `slot` waits for a session because of `reason`. Returns how many attempts have
    /// failed before any session was ever opened (0 once one has been).
    func waits(slot: Int, reason: String, countsAsFailure: Bool) -> Int {
        locked {
            waiting.insert(slot)
            waitReason = reason
            guard !everOpened else { return 0 }
            if countsAsFailure { failuresBeforeFirstSession += 1 }
            return failuresBeforeFirstSession
        }
    }

    /// Notes that `slot` no longer waits.
    func stopsWaiting(slot: Int) {
        locked {
            waiting.remove(slot)
            if waiting.isEmpty { waitReason = nil }
        }
    }

    /// Whether any session was ever opened.
    var hasOpenedASession: Bool { locked { everOpened } }

    // MARK: Pages

    /// Notes an attempt starting on `slot`, forgetting any earlier memory kill there.
    func attemptStarts(slot: Int) {
        locked {
            inFlight += 1
            memoryKills[slot] = nil
        }
    }

    /// Notes the attempt on `slot` ended; returns the memory-limit kill during it, if any.
    func attemptEnds(slot: Int) -> String? {
        locked {
            inFlight -= 1
            return memoryKills.removeValue(forKey: slot)
        }
    }

    /// Notes a page tried again on a new session.
    func retrying() {
        locked { retried += 1 }
    }

    /// Notes that a process of `slot`'s browser was stopped for using too much memory.
    func memoryKill(slot: Int, explanation: String) {
        locked { memoryKills[slot] = explanation }
    }

    /// The counts for a progress report.
    func fill(_ progress: inout BatchProgress) {
        locked {
            progress.inFlight = inFlight
            progress.openSessions = sessions.count
            progress.waitingForSession = waiting.count
            progress.waitReason = waitReason
            progress.retried = retried
        }
    }
}
