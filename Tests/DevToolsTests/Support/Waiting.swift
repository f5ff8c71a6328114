import Foundation

/// Why a test stopped waiting.
struct WaitTimedOut: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "\(what) did not happen within \(seconds) s" }
}

/// The result of `operation`, or `WaitTimedOut` after `seconds`: a guard against hangs, with
/// room for a machine shared with other builds. It never checks speed.
func within<T: Sendable>(
    _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            throw WaitTimedOut(what: what, seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw WaitTimedOut(what: what, seconds: seconds) }
        return first
    }
}

/// The first element of `stream` that satisfies `predicate`, or `WaitTimedOut` after `seconds`.
func first<Element: Sendable>(
    of stream: AsyncStream<Element>, within seconds: Double = 20, _ what: String,
    where predicate: @escaping @Sendable (Element) -> Bool = { _ in true }
) async throws -> Element {
    try await within(seconds, what) {
        for await element in stream where predicate(element) {
            return element
        }
        throw WaitTimedOut(what: "\(what) (the stream ended)", seconds: seconds)
    }
}
