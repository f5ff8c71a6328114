import Dispatch

/// Runs work that blocks a thread (stopping a process waits for it to exit; Xvfb is awaited with
/// `poll`) on a dispatch queue, so that it never holds one of the few threads of Swift's
/// cooperative pool while other tasks (a batch's other sessions) need them.
///
/// ```swift
/// await BlockingWork.run { process.stop(grace: 0.5) }
/// ```
public enum BlockingWork {
    private static let queue = DispatchQueue(label: "pagescript.blocking", attributes: .concurrent)

    /// Runs `body` on the blocking queue and returns its result.
    public static func run<Output: Sendable>(_ body: @escaping @Sendable () -> Output) async -> Output {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
