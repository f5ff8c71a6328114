/// A window's top-level navigations and the documents they committed, in the order the browser's
/// own protocol reported them (WebKit's Web Inspector, WebDriver BiDi's events), for what the page
/// itself cannot tell: whether the document shown is the one PageScript's navigation made (or
/// one that navigation led to), or one another navigation, started by the document being left,
/// put there instead; and the shown document's HTTP status where the protocol gives it.
///
/// Only the last few navigations and commits are kept.
struct NavigationRecord: Sendable {
    /// A navigation of the window's main frame, by the browser's ID for it.
    struct Navigation: Sendable {
        let id: String
        /// The address it asked for, before any server's redirect.
        let first: String
        /// The address its last response came from.
        var final: String
        var status: Int?
        let sequence: Int
    }

    /// A document the window's main frame committed to.
    struct Commit: Sendable {
        let navigation: String
        let url: String
        let sequence: Int
    }

    private(set) var navigations: [String: Navigation] = [:]
    private(set) var commits: [Commit] = []
    /// Where the record stands: what ``landing(since:requested:)`` looks after.
    private(set) var mark = 0

    /// How many navigations and commits are remembered.
    private static let memory = 16

    /// A request of navigation `id` for `url`: its first, or one its server redirected it to.
    mutating func requested(_ id: String, url: String) {
        if var known = navigations[id] {
            known.final = url
            navigations[id] = known
            return
        }
        mark += 1
        navigations[id] = Navigation(id: id, first: url, final: url, status: nil, sequence: mark)
        if navigations.count > Self.memory, let oldest = navigations.values.min(by: { $0.sequence < $1.sequence }) {
            navigations[oldest.id] = nil
        }
    }

    /// The response navigation `id` got: its status, from `url` when given.
    mutating func responded(_ id: String, url: String?, status: Int) {
        guard var known = navigations[id] else { return }
        known.status = status
        if let url { known.final = url }
        navigations[id] = known
    }

    /// The main frame committed navigation `id`'s document, at `url`.
    mutating func committed(_ id: String, url: String) {
        mark += 1
        commits.append(Commit(navigation: id, url: url, sequence: mark))
        if commits.count > Self.memory { commits.removeFirst() }
    }

    /// What became of a navigation to `requested` asked for after `mark`.
    func landing(since mark: Int, requested: String) -> DocumentLanding {
        let shown = commits.last.map { commit in
            InspectedDocument(url: commit.url, status: navigations[commit.navigation]?.status)
        }
        let started = navigations.values.filter { $0.sequence > mark }.sorted { $0.sequence < $1.sequence }
        guard let ours = started.first(where: { Self.sameDocument($0.first, requested) }),
              let current = commits.last, current.sequence > mark else {
            return DocumentLanding(showsRequestedDocument: nil, shown: shown)
        }
        if current.navigation == ours.id { return DocumentLanding(showsRequestedDocument: true, shown: shown) }
        // Another document: one the navigation's own led to if its navigation began after
        // that one was committed; one that replaced it otherwise (a navigation begun before,
        // by the document being left, may still be committed after it).
        guard let currentNavigation = navigations[current.navigation] else {
            return DocumentLanding(showsRequestedDocument: nil, shown: shown)
        }
        let oursCommitted = commits.first { $0.navigation == ours.id && $0.sequence > mark }
        let ledOn = oursCommitted.map { currentNavigation.sequence > $0.sequence } ?? false
        return DocumentLanding(showsRequestedDocument: ledOn, shown: shown)
    }

    /// Whether two addresses name one document (a fragment apart).
    static func sameDocument(_ first: String, _ second: String) -> Bool {
        first.prefix { $0 != "#" } == second.prefix { $0 != "#" }
    }
}

/// A main-frame document as the browser's protocol reported it.
public struct InspectedDocument: Sendable, Equatable {
    /// The address the document was committed at.
    public let url: String
    /// Its HTTP status; `nil` for a document that came from no HTTP response, or where the
    /// protocol does not say (WebDriver BiDi without its network events).
    public let status: Int?
}

/// What the browser's protocol saw of a navigation (``WebDriverSession/documentLanding(since:requested:)``).
public struct DocumentLanding: Sendable, Equatable {
    /// `true` when the navigation's own document was committed (the one shown, or one it led
    /// to); `false` when it never was and another navigation's document was (the document being
    /// left sent the browser elsewhere as the navigation began); `nil` when the record saw
    /// neither.
    public let showsRequestedDocument: Bool?
    /// The document the window shows, the last one committed.
    public let shown: InspectedDocument?
}
