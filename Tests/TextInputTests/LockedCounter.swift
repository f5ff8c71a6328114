import Foundation

/// A thread-safe count, for handlers that run on other threads.
final class LockedCounter: @unchecked Sendable {
    // Unchecked because `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() {
        lock.withLock { count += 1 }
    }
}
