import Foundation
import PageRuntime

/// The editor's page, which outlives one browser: when a script leaves it stuck (an endless loop
/// that outlasted its timeout, or a run the user cancelled), ``replace()`` stops that browser and
/// opens the same address in a new one.
///
/// A borrowed page (`browse`'s, in the browser the user looks at) is never replaced or closed:
/// the browser is not the editor's to stop, so ``replace()`` says what the user can do instead.
///
/// Everything that works on the page (runs, reloads, late userscript work, the watchdog) asks for
/// ``page`` each time instead of keeping one, so that it follows the replacement.
final class EditorPage: @unchecked Sendable {
    /// Whose the page is.
    private enum Ownership {
        /// The editor opened it and stops its browser; `reopen` opens an address in a new one.
        case owned(OpenedPage, reopen: @Sendable (String) async throws(PageRunner.Failure) -> OpenedPage)
        /// Someone else opened it and keeps it.
        case borrowed(PageSession)

        var page: PageSession {
            switch self {
            case let .owned(opened, _): opened.page
            case let .borrowed(page): page
            }
        }
    }

    private let lock = NSLock()
    private var ownership: Ownership
    private var lastAddress: String

    /// Holds `opened`; `reopen` opens an address in a new browser.
    init(_ opened: OpenedPage, reopen: @escaping @Sendable (String) async throws(PageRunner.Failure) -> OpenedPage) {
        ownership = .owned(opened, reopen: reopen)
        lastAddress = opened.context.url
    }

    /// Uses `page`, showing `address`, without ever replacing or closing it.
    init(borrowing page: PageSession, address: String) {
        ownership = .borrowed(page)
        lastAddress = address
    }

    /// Whether the editor opened the page (and may replace it in a new browser).
    var isOwned: Bool {
        lock.withLock { if case .owned = ownership { true } else { false } }
    }

    /// The page now.
    var page: PageSession {
        lock.withLock { ownership.page }
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
    ///
    /// - Throws: ``EditorHostError`` for a borrowed page, saying what the user can do instead.
    func replace(within turn: PageTurn) async throws -> PageContext {
        let (ownership, address) = lock.withLock { (self.ownership, lastAddress) }
        guard case let .owned(old, reopen) = ownership else {
            throw EditorHostError(message: "The page is still busy in the script, and it is in your own browser, which PageScript does not "
                + "close: reload or close its tab there, then run again.")
        }
        await old.close(after: .injection(.timedOut(seconds: 0)))
        let new = try await turn.during { try await reopen(address) }
        lock.withLock {
            self.ownership = .owned(new, reopen: reopen)
            lastAddress = new.context.url
        }
        return new.context
    }

    /// Closes the page and stops its browser; a borrowed page is left as it is.
    func close() async {
        guard case let .owned(opened, _) = lock.withLock({ ownership }) else { return }
        await opened.close()
    }
}
