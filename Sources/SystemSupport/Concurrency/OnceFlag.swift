import Foundation

/// A flag that can be claimed once, from any thread: the first ``claim()`` wins, every later
/// one is told it lost.
///
/// For work that must happen exactly once however many paths reach it: the first termination
/// signal's handler, the delete of a WebDriver session on its success and error paths.
///
/// ```swift
/// let deleted = OnceFlag()
/// func delete() async {
///     guard deleted.claim() else { return }
///     await client.send(.DELETE, "/session/\(id)")
/// }
/// ```
public final class OnceFlag: @unchecked Sendable {
    // Guards `claimed`, the only mutable state; hence @unchecked Sendable.
    private let lock = NSLock()
    private var claimed = false

    /// Creates an unclaimed flag.
    public init() {}

    /// Claims the flag; `true` only for the first call.
    public func claim() -> Bool {
        lock.withLock {
            if claimed { return false }
            claimed = true
            return true
        }
    }

    /// Whether the flag has been claimed: for a loop that stops once someone asked it to.
    public var isClaimed: Bool {
        lock.withLock { claimed }
    }
}
