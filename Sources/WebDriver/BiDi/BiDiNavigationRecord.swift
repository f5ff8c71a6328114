import NIOConcurrencyHelpers
import SystemSupport

/// What WebDriver BiDi says about the top-level documents of a session's window
/// (``NavigationRecord``): each navigation as it starts (`browsingContext.navigationStarted`, the
/// page's own included) and each document the window commits to
/// (`browsingContext.navigationCommitted`), by the browser's navigation ID, so that a document
/// another navigation put in the window as PageScript's began is told from one PageScript's led
/// to, where the page itself cannot tell. Statuses are not recorded: the page's Navigation Timing
/// has them, and network events would cost every request of every page.
///
/// It also notes which navigations became downloads (`browsingContext.downloadWillBegin`) and
/// tells a navigation under way of a dialog the page opens (`browsingContext.userPromptOpened`)
/// and of a document committed under a navigation ID never seen starting, for
/// ``WebDriverSession/navigateThroughBiDi(to:endingAtDOMContentLoaded:timeout:)``.
final class BiDiNavigationRecord: Sendable {
    /// The window's browsing context, whose events are recorded.
    let context: String
    private let record = NIOLockedValueBox(NavigationRecord())
    /// The navigations that became downloads, latest last, with their addresses, and how many
    /// there have been.
    private let downloads = NIOLockedValueBox<(recent: [(navigation: String, url: String)], count: Int)>(([], 0))
    private let watch = NIOLockedValueBox<(@Sendable (WatchedEvent) -> Void)?>(nil)

    /// What a navigation under way is told of (``watch(_:)``).
    enum WatchedEvent: Sendable {
        /// The page opened a dialog.
        case promptOpened
        /// The window committed a document under a navigation ID no `navigationStarted` named:
        /// Firefox gives a navigation the page began, still under way when
        /// `browsingContext.navigate` was sent, that command's ID, and may then never start the
        /// navigation the command asked for.
        case unstartedCommit
    }

    /// The events the record needs.
    static let events = ["browsingContext.navigationStarted", "browsingContext.navigationCommitted",
                         "browsingContext.downloadWillBegin", "browsingContext.userPromptOpened"]

    /// How many downloads are remembered.
    private static let downloadMemory = 16

    init(context: String) {
        self.context = context
    }

    /// Records `method`'s event when it is about the window's own context.
    func received(_ method: String, _ parameters: JSONValue) {
        guard parameters["context"]?.stringValue == context else { return }
        if method == "browsingContext.userPromptOpened" {
            watch.withLockedValue { $0 }?(.promptOpened)
            return
        }
        if method == "browsingContext.downloadWillBegin", let navigation = parameters["navigation"]?.stringValue {
            let url = parameters["url"]?.stringValue ?? ""
            downloads.withLockedValue { known in
                known.recent.append((navigation, url))
                known.count += 1
                if known.recent.count > Self.downloadMemory { known.recent.removeFirst() }
            }
            return
        }
        guard let navigation = parameters["navigation"]?.stringValue,
              let url = parameters["url"]?.stringValue else { return }
        switch method {
        case "browsingContext.navigationStarted": record.withLockedValue { $0.requested(navigation, url: url) }
        case "browsingContext.navigationCommitted":
            let started = record.withLockedValue { record in
                defer { record.committed(navigation, url: url) }
                return record.navigations[navigation] != nil
            }
            if !started { watch.withLockedValue { $0 }?(.unstartedCommit) }
        default: break
        }
    }

    /// Whether navigation `id` became a download rather than a document.
    func becameDownload(_ id: String) -> Bool {
        downloads.withLockedValue { $0.recent.contains { $0.navigation == id } }
    }

    /// How many downloads have begun in the window (for ``downloadBegan(at:after:)``).
    var downloadCount: Int {
        downloads.withLockedValue(\.count)
    }

    /// Whether a download of `url` began after the first `count` downloads, under any navigation.
    func downloadBegan(at url: String, after count: Int) -> Bool {
        downloads.withLockedValue { known in
            known.recent.suffix(max(0, known.count - count)).contains { NavigationRecord.sameDocument($0.url, url) }
        }
    }

    /// Calls `handler` with each ``WatchedEvent`` of the window, until `nil` replaces it.
    func watch(_ handler: (@Sendable (WatchedEvent) -> Void)?) {
        watch.withLockedValue { $0 = handler }
    }

    /// Where the record stands now.
    var mark: Int {
        record.withLockedValue(\.mark)
    }

    /// What became of a navigation to `requested` asked for after `mark`.
    func landing(since mark: Int, requested: String) -> DocumentLanding {
        record.withLockedValue { $0.landing(since: mark, requested: requested) }
    }
}
