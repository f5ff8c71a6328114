import Foundation

/// Whether a script is running on the page now, shared between the editor's runner and the
/// browser watchdog.
public final class BusyFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Whether some work is under way.
    public var isBusy: Bool {
        lock.withLock { count > 0 }
    }

    /// Runs `body` marked busy.
    public func during<Output>(_ body: () async throws -> Output) async rethrows -> Output {
        change(by: 1)
        defer { change(by: -1) }
        return try await body()
    }

    private func change(by delta: Int) {
        lock.withLock { count += delta }
    }
}
