import Testing
import TestSupport

extension TmuxSession {
    /// Waits for `condition` on the screen and fails the test, naming `what` and showing the
    /// screen, when it never holds.
    @discardableResult
    func requireScreen(_ what: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
                       _ condition: ([String]) -> Bool) throws -> [String] {
        do {
            return try waitFor(timeout: timeout, condition)
        } catch {
            let screen = (try? self.screen()) ?? []
            try #require(condition(screen), "\(what) never showed:\n\(screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
            return screen
        }
    }

    /// Waits until some row contains `text`, and fails the test when none does in time.
    @discardableResult
    func requireScreen(text: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try requireScreen("“\(text)”", timeout: timeout, sourceLocation: sourceLocation) { rows in rows.contains { $0.contains(text) } }
    }
}
