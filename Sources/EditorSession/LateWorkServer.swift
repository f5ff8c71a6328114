import Foundation
import PageRuntime
import ScriptConsole

/// Serves, between the user's runs, what scripts run in the editor queued after their runs
/// ended: values written and `GM_xmlhttpRequest` calls made from timers and event handlers; and
/// hands over what they logged meanwhile, as it comes.
///
/// It looks twice a second, only once a script has run in the session, and never while other
/// work holds the page (``PageTurn``). Failures are left to the next run to report: a page that
/// navigated away has no late work.
final class LateWorkServer: @unchecked Sendable {
    private let lock = NSLock()
    private var hasRuns = false
    private var task: Task<Void, Never>?

    /// Starts looking at the editor's page (whichever it is now), taking turns through `turn`;
    /// `logged` gets the console lines scripts wrote after their runs.
    init(page: EditorPage, turn: PageTurn, interval: Double = 0.5, logged: @escaping @Sendable ([ConsoleMessage]) -> Void = { _ in }) {
        task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                guard let self, self.isNeeded, !Task.isCancelled else { continue }
                guard let late = try? await turn.during({ try await page.page.serveLateUserScriptWork() }) else { continue }
                let lines = late.output.flatMap(\.console)
                if !lines.isEmpty { logged(lines) }
            }
        }
    }

    deinit {
        task?.cancel()
    }

    /// A script ran: from now on there may be late work, or lines logged later.
    func scriptRan() {
        lock.withLock { hasRuns = true }
    }

    /// Stops looking; call before the session ends.
    func stop() {
        task?.cancel()
    }

    private var isNeeded: Bool {
        lock.withLock { hasRuns }
    }
}
