import Foundation

/// What Action.js `run` reports: the page's URL and title, checked.
///
/// Both strings come from the page and may be hostile: they are kept as sent (so that scripts
/// and JSON output see the truth) and must be escaped before they reach a terminal.
public struct PageContext: Sendable, Equatable {
    /// The page's URL, as `document.URL` gives it.
    public let url: String
    /// The page's title, as `document.title` gives it.
    public let title: String

    /// The longest title or URL accepted, in UTF-8 bytes: more is a page trying to flood the user.
    public static let maximumLength = 64 * 1024

    /// Creates a context after checking it.
    public init(url: String, title: String) throws(InjectionError) {
        guard !url.isEmpty else { throw .pageInterfered(reason: "the page reported an empty URL") }
        guard url.utf8.count <= Self.maximumLength else { throw .pageInterfered(reason: "the page's URL is longer than 64 KiB") }
        guard let parsed = URL(string: url), let scheme = parsed.scheme, !scheme.isEmpty else {
            throw .pageInterfered(reason: "the page reported a URL that does not parse")
        }
        self.url = url
        self.title = title.utf8.count <= Self.maximumLength ? title : String(decoding: title.utf8.prefix(Self.maximumLength), as: UTF8.self)
    }
}
