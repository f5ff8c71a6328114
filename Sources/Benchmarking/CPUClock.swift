import Foundation
import SystemSupport

/// The processor time a run cost: this process's own and that of every process below it that
/// ended during the run (user and system time, from `getrusage`).
///
/// This process's own time is in every reading, whoever ran: the loopback server the pages come
/// from runs here, for PageScript's runs and the peers' alike, and so does the peers' waiting
/// (``MeasuredProcess`` looks at a peer's memory every millisecond, a little time PageScript's
/// own runs do not have).
///
/// A process's time reaches `RUSAGE_CHILDREN` when its parent reaps it, and its own reaped
/// descendants' with it; a browser's helpers are reaped by the browser, the browser by its
/// driver or by PageScript, and an orphan by this process (the executable adopts them:
/// ``SystemSupport/OrphanReaper``; the clock reaps those), whenever that is. So the clock starts
/// only once every process below this one has ended and been reaped (what an earlier run left, a
/// browser's helper still ending, would otherwise count for this one), and ``secondsUsed()``
/// waits the same way before reading. The processes kept for the next run (a display) are
/// neither waited for nor counted.
///
/// ```swift
/// let clock = CPUClock.start(keeping: [display.process.processID])
/// try await work()
/// let seconds = clock.secondsUsed()
/// ```
struct CPUClock {
    private let before: (own: Double, reaped: Double)
    private let kept: Set<pid_t>
    private let settle: Double

    /// Starts counting once every process below this one but `kept` has ended and been reaped,
    /// waiting at most `settle` seconds for that.
    static func start(keeping kept: Set<pid_t> = [], settle: Double = 10) -> CPUClock {
        waitForDescendants(toEnd: kept, within: settle)
        return CPUClock(before: readings(), kept: kept, settle: settle)
    }

    /// The processor seconds used since ``start(keeping:settle:)`` by this process and by the
    /// processes started meanwhile, once they have ended (the clock's `settle` seconds at most;
    /// whatever still runs then is not counted).
    func secondsUsed() -> Double {
        Self.waitForDescendants(toEnd: kept, within: settle)
        let after = Self.readings()
        return (after.reaped - before.reaped) + (after.own - before.own)
    }

    private static func waitForDescendants(toEnd kept: Set<pid_t>, within seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let waiting = ProcessTree.descendants(of: getpid()).filter { !kept.contains($0) }
            // The orphans this process adopted; a child a ``ChildProcess`` owns is left to it.
            ChildProcessRegistry.shared.reapStrays(adding: waiting)
            guard !waiting.isEmpty, Date() < deadline else { return }
            usleep(5_000)
        }
    }

    private static func readings() -> (own: Double, reaped: Double) {
        func seconds(_ usage: rusage) -> Double {
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        }
        var own = rusage(), reaped = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &own) == 0, getrusage(RUSAGE_CHILDREN.rawValue, &reaped) == 0 else { return (0, 0) }
        return (seconds(own), seconds(reaped))
    }
}
