import Foundation
import NIOConcurrencyHelpers
import SystemSupport

/// What Action.js `run` reports: the page's URL and title, checked.
///
/// Both strings come from the page and may be hostile: they are kept as sent (so that scripts
/// and JSON output see the truth) and must be escaped before they reach a terminal.
public struct PageContext: Sendable, Equatable {
    /// The page's URL, as `document.URL` gives it.
    public let url: String
    /// The page's title, as `document.title` gives it.
    public let title: String
    /// The HTTP status the server answered the page's document with, where the engine reports it
    /// (Chromium does, WebKitGTK does not); `nil` otherwise, and for pages not loaded over HTTP.
    public let httpStatus: Int?
    /// The load timeout, in seconds, that ran out before the page finished loading, when it did:
    /// its document was usable (DOMContentLoaded had passed) and the scripts ran on it as it was,
    /// an image or a script of the page perhaps still loading. `nil` for a page that loaded.
    public let unfinishedLoad: Double?

    /// The longest title or URL accepted, in UTF-8 bytes: more is a page trying to flood the user.
    public static let maximumLength = 64 * 1024

    /// The last URL found to parse.
    private static let lastParsedURL = NIOLockedValueBox<String?>(nil)

    /// Creates a context after checking it.
    public init(url: String, title: String, httpStatus: Int? = nil, unfinishedLoad: Double? = nil) throws(InjectionError) {
        guard !url.isEmpty else { throw .pageInterfered(reason: "the page reported an empty URL") }
        guard url.utf8.count <= Self.maximumLength else { throw .pageInterfered(reason: "the page's URL is longer than 64 KiB") }
        // Every reply carries the page's address, mostly the same one again: it is parsed once.
        if Self.lastParsedURL.withLockedValue({ $0 != url }) {
            guard let parsed = URL(string: url), let scheme = parsed.scheme, !scheme.isEmpty else {
                throw .pageInterfered(reason: "the page reported a URL that does not parse")
            }
            Self.lastParsedURL.withLockedValue { $0 = url }
        }
        self.url = url
        self.httpStatus = httpStatus
        self.unfinishedLoad = unfinishedLoad
        self.title = title.utf8.count <= Self.maximumLength ? title : String(decoding: title.utf8.prefix(Self.maximumLength), as: UTF8.self)
    }

    /// The same context, its page's load unfinished after `seconds` (``unfinishedLoad``).
    func unfinished(after seconds: Double?) -> PageContext {
        guard let seconds, unfinishedLoad == nil, let context = try? PageContext(url: url, title: title, httpStatus: httpStatus, unfinishedLoad: seconds)
        else { return self }
        return context
    }

    /// The `load` member of a report on this page, for one whose load did not finish:
    /// `{"finished": false, "timeout": seconds}`; `nil` otherwise.
    var loadJSON: JSONValue? {
        unfinishedLoad.map { ["finished": false, "timeout": .number($0)] }
    }
}
