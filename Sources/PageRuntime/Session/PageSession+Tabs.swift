import Foundation
import WebDriver

extension PageSession {
    /// Opens the tabs `result`'s script asked for with `GM_openInTab` (those it did not close
    /// through the handle), one after another, each loaded within `timeout` seconds, notes what
    /// each showed, closes it and comes back to the page: `run`'s tabs, which end with the run.
    /// A tab that cannot be opened says why (``GMTab/opening(from:)``, or a load that failed).
    func openRequestedTabs(of result: ScriptResult, timeout: Double) async -> ScriptResult {
        guard var activity = result.userscript, !activity.tabs.isEmpty else { return result }
        let pageURL = result.context.url
        for index in activity.tabs.indices {
            let address: String
            switch activity.tabs[index].opening(from: pageURL) {
            case let .opens(opened): address = opened
            case .closedByScript: continue
            case let .refused(reason):
                activity.tabs[index].notOpened = reason
                continue
            }
            do throws(WebDriverError) {
                let shown = try await visit(inNewTab: address, timeout: timeout, closingIt: true) { _ in }
                activity.tabs[index].shownURL = shown.url
                activity.tabs[index].title = shown.title
            } catch {
                activity.tabs[index].notOpened = "the tab did not load: \(error)"
            }
        }
        return result.with(userscript: activity)
    }

    /// Opens `address` in a new tab that stays open (the editor's tabs, which last as long as its
    /// browser) and does `work` there as on a page of its own: its own runtime, and its own name
    /// for `GM_getTab` (``identify(asTab:)``); then makes the page's window current again, with
    /// its name and runtime, whatever happened. A tab that did not load is closed.
    ///
    /// ```swift
    /// let tab = try await page.visitInNewTab("https://example.com/next", timeout: 20) { tab in
    ///     try? await LibraryRun.runMatching(library: library, on: tab, host: host).results
    /// }
    /// ```
    ///
    /// - Returns: Where the tab's page ended up, its title, and what `work` gave.
    public func visitInNewTab<Output: Sendable>(
        _ address: String, timeout: Double, _ work: (PageSession) async -> Output
    ) async throws(WebDriverError) -> (url: String, title: String, output: Output) {
        try await visit(inNewTab: address, timeout: timeout, closingIt: false, work)
    }

    /// Loads `address` in a new tab and does `work` there (``visitInNewTab(_:timeout:_:)``); the
    /// tab is closed after, `closingIt`, and kept open otherwise.
    private func visit<Output: Sendable>(
        inNewTab address: String, timeout: Double, closingIt: Bool, _ work: (PageSession) async -> Output
    ) async throws(WebDriverError) -> (url: String, title: String, output: Output) {
        let original = try await session.windowHandle(timeout: 10)
        let (name, runtime) = (state.update { $0.tab }, installedRuntime)
        let tab = try await session.newWindow(timeout: 10)
        defer {
            state.update { $0.tab = name }
        }
        do {
            try await session.switchToWindow(tab, timeout: 10)
            identify(asTab: "tab-" + tab)
            resumeRuntime(nil)
            try await session.navigate(to: address, timeout: timeout)
            let shown = (url: try await session.currentURL(timeout: 10), title: try await session.title(timeout: 10))
            let output = await work(self)
            if closingIt {
                try await leave(tab: tab, for: original)
            } else {
                try await session.switchToWindow(original, timeout: 10)
            }
            resumeRuntime(runtime)
            return (shown.url, shown.title, output)
        } catch {
            try? await leave(tab: tab, for: original)
            resumeRuntime(runtime)
            throw error
        }
    }

    private func leave(tab: String, for original: String) async throws(WebDriverError) {
        if session.knownWindowHandle != tab { try await session.switchToWindow(tab, timeout: 10) }
        _ = try await session.closeWindow(timeout: 10)
        try await session.switchToWindow(original, timeout: 10)
    }
}
