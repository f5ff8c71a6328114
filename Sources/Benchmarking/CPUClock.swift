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
/// ``SystemSupport/OrphanReaper``). So before reading, ``secondsUsed(includingOwn:)`` waits until
/// every process started during the run has ended and been reaped; the processes that were
/// already there (a display kept for the next run) are neither waited for nor counted.
///
/// ```swift
/// let clock = CPUClock.start()
/// try await work()
/// let seconds = clock.secondsUsed()
/// ```
struct CPUClock {
    private let before: (own: Double, reaped: Double)
    private let earlier: Set<pid_t>

    /// Starts counting now.
    static func start() -> CPUClock {
        CPUClock(before: readings(), earlier: Set(ProcessTree.descendants(of: getpid())))
    }

    /// The processor seconds used since ``start()`` by this process and by the processes started
    /// meanwhile. Waits at most `settle` seconds for those processes to end; whatever is still
    /// running then is not counted.
    func secondsUsed(settle: Double = 5) -> Double {
        let deadline = Date().addingTimeInterval(settle)
        while ProcessTree.descendants(of: getpid()).contains(where: { !earlier.contains($0) }), Date() < deadline {
            OrphanReaper.reapExited()
            usleep(5_000)
        }
        let after = Self.readings()
        return (after.reaped - before.reaped) + (after.own - before.own)
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
