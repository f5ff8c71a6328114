import Foundation
import PageRuntime
import SystemSupport
import WebDriver

/// Notices when the browser under an open page goes away (its driver exits, or the session stops
/// answering), so that the editor can give the terminal back instead of waiting on a dead page.
final class BrowserWatchdog: Sendable {
    private let task: Task<Void, Never>

    /// Starts watching; `onDeath` is called once, with a reason, when the browser is gone.
    ///
    /// - Parameters:
    ///   - processes: The engine's local processes now (none for a remote endpoint).
    ///   - session: The page's session now (it changes when a stuck page is replaced), asked for
    ///     its URL every `interval` seconds.
    ///   - isBusy: Whether a script is running or the page is being replaced now: a busy page is
    ///     not watched, so that a long script is not mistaken for a dead browser, nor the old
    ///     browser of a replaced page for the new one.
    init(processes: @escaping @Sendable () -> [ChildProcess], session: @escaping @Sendable () -> WebDriverSession, interval: Double = 1,
                isBusy: @escaping @Sendable () -> Bool, onDeath: @escaping @Sendable (String) -> Void) {
        task = Task {
            var unknownFailures = 0
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                if Task.isCancelled { return }
                if isBusy() { continue }
                if let exited = processes().first(where: { !$0.isRunning }) {
                    onDeath("The browser's driver (\(exited.executablePath)) exited.")
                    return
                }
                let asked = session()
                do throws(WebDriverError) {
                    _ = try await asked.currentURL(timeout: 5)
                    unknownFailures = 0
                } catch {
                    // A page replaced meanwhile, or work that started, explains the failure.
                    if isBusy() || session() !== asked { continue }
                    switch error {
                    case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                        onDeath("The browser closed: \(error.description)")
                        return
                    case .protocolError(code: .unknownError, _, _), .requestTimedOut:
                        // A driver that lost its browser says so this way; twice in a row is not a blip.
                        unknownFailures += 1
                        if unknownFailures >= 2 {
                            onDeath("The browser stopped answering: \(error.description)")
                            return
                        }
                    default:
                        continue
                    }
                }
            }
        }
    }

    /// Stops watching.
    func cancel() {
        task.cancel()
    }
}

/// Whether a script is running on the page now, shared between the editor's runner and the
/// browser watchdog.
final class BusyFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    init() {}

    /// Whether some work is under way.
    var isBusy: Bool {
        lock.withLock { count > 0 }
    }

    /// Runs `body` marked busy.
    func during<Output>(_ body: () async throws -> Output) async rethrows -> Output {
        change(by: 1)
        defer { change(by: -1) }
        return try await body()
    }

    private func change(by delta: Int) {
        lock.withLock { count += delta }
    }
}
