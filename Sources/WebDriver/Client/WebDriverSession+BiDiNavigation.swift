import Foundation
import SystemSupport

/// How a navigation through WebDriver BiDi ended (``WebDriverSession/navigateThroughBiDi(to:endingAtDOMContentLoaded:timeout:)``).
public enum BiDiNavigationOutcome: Sendable, Equatable {
    /// The new document reached what the navigation waited for, at `url` (a server's redirects
    /// followed).
    case loaded(url: String)
    /// The browser opened no document there and stayed on the one it had: a response without
    /// content, or a navigation another replaced.
    case noNewDocument
    /// The address is a download (`browsingContext.downloadWillBegin` for the navigation): the
    /// browser reports success and stays on the document it had.
    case downloadBegan
    /// The navigation failed with the browser's `message` (`Error: NS_ERROR_CONNECTION_REFUSED`);
    /// the window may show the browser's error page.
    case failed(message: String)
    /// The page opened a dialog while it loaded, which is left open for the caller to answer.
    case dialogOpened
    /// The document did not get there within the time; the browser may still be loading it.
    case timedOut
}

extension WebDriverSession {
    /// Navigates the session's window to `url` with WebDriver BiDi's `browsingContext.navigate`
    /// and waits, at most `timeout` seconds, for the new document's load event (its
    /// DOMContentLoaded with `endingAtDOMContentLoaded`), on a session whose window's navigations
    /// are followed through BiDi (from ``waitForDocumentRecord(within:)`` on; Firefox's): the
    /// browser answers at once for an address that shows no page (a `204`, a download), where
    /// geckodriver's Navigate To waits for a document that never comes until its page-load limit.
    ///
    /// The limit is `timeout` alone, not the session's page-load timeout; a navigation that runs
    /// out of it goes on in the browser until the next one replaces it.
    ///
    /// - Returns: How the navigation ended; `nil` when it cannot go this way (no BiDi record of
    ///   the window, the driver on another window, a closed connection, an error BiDi has no
    ///   navigation outcome for): navigate with ``navigate(to:timeout:)`` then.
    public func navigateThroughBiDi(to url: String, endingAtDOMContentLoaded: Bool, timeout: Double) async -> BiDiNavigationOutcome? {
        guard let record = bidiNavigation.withLockedValue({ $0 }), knownWindowHandle == record.context,
              let opening = bidiConnection.withLockedValue({ $0 }), case let .success(connection) = await opening.value else { return nil }
        let parameters: JSONValue = [
            "context": .string(record.context), "url": .string(url),
            "wait": .string(endingAtDOMContentLoaded ? "interactive" : "complete"),
        ]
        let deadline = Date().addingTimeInterval(timeout)
        var reply: BiDiNavigationReply
        var attempts = 0
        repeat {
            attempts += 1
            reply = await sendNavigate(parameters, on: connection, watching: record,
                                       timeout: max(deadline.timeIntervalSinceNow, 0.001),
                                       replacementsAllowed: attempts < Self.bidiNavigationAttempts)
            // A navigation the page began, committed under this command's ID: the command's own
            // may never start, so it is sent again; a command that did start is replaced by it.
        } while reply == .anotherNavigationCommitted && deadline.timeIntervalSinceNow > 0
        switch reply {
        case .dialogOpened:
            return .dialogOpened
        case .anotherNavigationCommitted:
            return .timedOut
        case let .answered(.success(result)):
            // A download Firefox announces later, under a navigation of its own, is found by the
            // visit before it would navigate again (``downloadBegan(at:since:)``).
            if let navigation = result["navigation"]?.stringValue, record.becameDownload(navigation) { return .downloadBegan }
            return .loaded(url: result["url"]?.stringValue ?? url)
        case let .answered(.failure(.commandFailed(_, "unknown error", message))):
            // Firefox aborts the load of a response without content, and one that another
            // navigation replaced.
            return message.contains("NS_BINDING_ABORTED") ? .noNewDocument : .failed(message: message)
        case .answered(.failure(.timedOut)):
            return .timedOut
        default:
            return nil
        }
    }

    /// How many times one navigation sends `browsingContext.navigate`, at most.
    private static let bidiNavigationAttempts = 3

    /// Sends `browsingContext.navigate` and waits for its answer, a dialog the page opens while
    /// it loads (which holds the load until it is answered: the session's dialogs are left open
    /// for PageScript), or, with `replacementsAllowed`, a document another navigation committed.
    private func sendNavigate(_ parameters: JSONValue, on connection: BiDiConnection, watching record: BiDiNavigationRecord,
                              timeout: Double, replacementsAllowed: Bool) async -> BiDiNavigationReply {
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<BiDiNavigationReply, Never>) in
            let answered = OnceFlag()
            record.watch { event in
                switch event {
                case .promptOpened:
                    if answered.claim() { continuation.resume(returning: .dialogOpened) }
                case .unstartedCommit:
                    if replacementsAllowed, answered.claim() { continuation.resume(returning: .anotherNavigationCommitted) }
                }
            }
            Task {
                let result = await connection.reply(to: "browsingContext.navigate", parameters: parameters, timeout: timeout)
                if answered.claim() { continuation.resume(returning: .answered(result)) }
            }
        }
        record.watch(nil)
        return reply
    }
}

/// What ended one `browsingContext.navigate` command's wait.
private enum BiDiNavigationReply: Equatable {
    case answered(Result<JSONValue, BiDiError>)
    case dialogOpened
    case anotherNavigationCommitted
}
