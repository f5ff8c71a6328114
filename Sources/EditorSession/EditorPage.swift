import Foundation
import Injection
import WebDriver

/// The editor's page, which outlives one browser: when a script leaves it stuck (an endless loop
/// that outlasted its timeout, or a run the user cancelled), ``replace()`` stops that browser and
/// opens the same address in a new one.
///
/// Everything that works on the page (runs, reloads, late userscript work, the watchdog) asks for
/// ``page`` each time instead of keeping one, so that it follows the replacement.
final class EditorPage: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: OpenedPage
    private var lastAddress: String
    private let reopen: @Sendable (String) async throws(PageRunner.Failure) -> OpenedPage

    /// Holds `opened`; `reopen` opens an address in a new browser.
    init(_ opened: OpenedPage, reopen: @escaping @Sendable (String) async throws(PageRunner.Failure) -> OpenedPage) {
        self.opened = opened
        lastAddress = opened.context.url
        self.reopen = reopen
    }

    /// The page now.
    var page: PageSession {
        lock.withLock { opened.page }
    }

    /// The page's address as last seen (a stuck page cannot be asked).
    var address: String {
        lock.withLock { lastAddress }
    }

    /// Notes the address the page showed after a run or a reload.
    func saw(_ address: String) {
        lock.withLock { lastAddress = address }
    }

    /// Whether the page answers a trivial script within `seconds`: a page busy in an endless loop
    /// does not.
    func answers(within seconds: Double = 2) async -> Bool {
        (try? await page.session.executeScript("return 1", timeout: seconds)) != nil
    }

    /// Stops the browser under the page outright (a stuck page cannot close politely) and opens
    /// the last address in a new one, in `turn`. The old browser is stopped first, outside the
    /// turn, so that a run still waiting on it fails at once and gives the turn up.
    func replace(within turn: PageTurn) async throws -> PageContext {
        let (old, address) = lock.withLock { (opened, lastAddress) }
        await old.close(after: .injection(.timedOut(seconds: 0)))
        let reopen = self.reopen
        let new = try await turn.during { try await reopen(address) }
        lock.withLock {
            opened = new
            lastAddress = new.context.url
        }
        return new.context
    }

    /// Closes the page and stops its browser.
    func close() async {
        await lock.withLock { opened }.close()
    }
}
