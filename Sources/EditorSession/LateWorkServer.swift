import Foundation
import PageRuntime

/// Serves, between the user's runs, what userscripts run in the editor queued after their runs
/// ended: values written and `GM_xmlhttpRequest` calls made from timers and event handlers.
///
/// It looks twice a second, only once a userscript has run in the session, and never while other
/// work holds the page (``PageTurn``). Failures are left to the next run to report: a page that
/// navigated away has no late work.
final class LateWorkServer: @unchecked Sendable {
    private let lock = NSLock()
    private var hasUserScripts = false
    private var task: Task<Void, Never>?

    /// Starts looking at the editor's page (whichever it is now), taking turns through `turn`.
    init(page: EditorPage, turn: PageTurn, interval: Double = 0.5) {
        task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                guard let self, self.isNeeded, !Task.isCancelled else { continue }
                _ = try? await turn.during { try await page.page.serveLateUserScriptWork() }
            }
        }
    }

    deinit {
        task?.cancel()
    }

    /// A userscript ran: from now on there may be late work.
    func userScriptRan() {
        lock.withLock { hasUserScripts = true }
    }

    /// Stops looking; call before the session ends.
    func stop() {
        task?.cancel()
    }

    private var isNeeded: Bool {
        lock.withLock { hasUserScripts }
    }
}
