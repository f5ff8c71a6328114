import Foundation

/// What a command that starts browsers does about processes, in one place: at its start it stops
/// what a command of its kind left running when it was killed with SIGKILL and marks its own
/// children; when it is interrupted, or its reader goes away, it stops everything it started; at
/// its end it stops what its children left behind.
///
/// ```swift
/// let leftovers = CommandSupervision.takeCharge(as: .command)
/// let signals = TerminationSignals { signal in
///     CommandSupervision.stopEverything()
///     exit(128 + signal)
/// }
/// defer {
///     signals.cancel()
///     CommandSupervision.sweep()
/// }
/// ```
public enum CommandSupervision {
    /// Stops what a killed command of `owner`'s kind left running (its X server, driver,
    /// browser), marks this command's children as `owner`'s, and adopts the processes its
    /// children detach, so that ``sweep()`` can stop them.
    ///
    /// - Returns: How many leftover processes were stopped.
    @discardableResult
    public static func takeCharge(as owner: LeftoverProcesses.Owner) -> Int {
        _ = OrphanReaper.adoptOrphans()
        let stopped = LeftoverProcesses.stopOrphans(of: owner)
        LeftoverProcesses.markChildren(as: owner)
        return stopped
    }

    /// Stops every process this command started and everything below them, each given `grace`
    /// seconds after SIGTERM before SIGKILL.
    public static func stopEverything(grace: Double = 0.3) {
        ChildProcessRegistry.shared.stopAll(grace: grace)
        OrphanReaper.stopAllDescendants()
    }

    /// Kills every process this command started at once, and everything below them: the last
    /// resort when stopping them in order took too long.
    public static func killEverything() {
        ChildProcessRegistry.shared.killAll()
        OrphanReaper.stopAllDescendants()
    }

    /// Stops whatever a finished command left below this process (detached browser helpers).
    public static func sweep() {
        OrphanReaper.stopAllDescendants()
    }

    /// Makes a reader that went away an `EPIPE` from `write` (``StandardStream/write(_:)`` then
    /// returns `false`) instead of a SIGPIPE that would end the process before it stops the
    /// browsers it started. Called once, at the start.
    public static func reportClosedReadersAsErrors() {
        signal(SIGPIPE, SIG_IGN)
    }
}
