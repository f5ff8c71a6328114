import UserScripts

/// What Action.js's `run` reported about the page Safari is showing: its URL and its title.
///
/// Safari hands the extension the dictionary that `run` passed to `completionFunction`, under
/// `NSExtensionJavaScriptPreprocessingResultsKey`. Both values come from the page, so nothing
/// about them is trusted: a missing, mistyped, empty or oversized URL reads as no URL (the editor
/// then works without a site), a title that is not a string reads as empty, and the title is only
/// ever shown through ``displayTitle``.
///
/// ```swift
/// let results = (item as? NSDictionary)?[NSExtensionJavaScriptPreprocessingResultsKey]
/// let page = ActionPage(preprocessingResults: results)
/// navigationItem.title = page.displayTitle
/// ```
public struct ActionPage: Hashable, Sendable {
    /// The key Action.js's `run` sends the page's URL under (`document.URL`).
    public static let urlKey = "URL"
    /// The key Action.js's `run` sends the page's title under (`document.title`).
    public static let titleKey = "title"
    /// The longest URL accepted, in UTF-8 bytes; the same limit as the command line's.
    public static let maximumURLLength = 64 * 1024
    /// The most Unicode scalars of the title kept; far more than any bar shows.
    public static let maximumTitleScalars = 4 * 1024

    /// The page's URL as reported, or `nil` when it was missing, empty, too long or not a string.
    public let url: String?
    /// The page's title as reported, cut to ``maximumTitleScalars``; empty when missing.
    public let title: String

    /// Creates a page from values already read.
    ///
    /// - Parameters:
    ///   - url: The page's URL; empty or oversized reads as `nil`.
    ///   - title: The page's title; cut to ``maximumTitleScalars``.
    public init(url: String?, title: String) {
        self.url = url.flatMap { $0.isEmpty || $0.utf8.count > Self.maximumURLLength ? nil : $0 }
        self.title = String(String.UnicodeScalarView(title.unicodeScalars.prefix(Self.maximumTitleScalars)))
    }

    /// Reads the preprocessing results: a dictionary with ``urlKey`` and ``titleKey``.
    ///
    /// - Parameter preprocessingResults: The value under
    ///   `NSExtensionJavaScriptPreprocessingResultsKey`, of any type or `nil`.
    public init(preprocessingResults: Any?) {
        let results = preprocessingResults as? [AnyHashable: Any] ?? [:]
        self.init(url: results[Self.urlKey] as? String, title: results[Self.titleKey] as? String ?? "")
    }

    /// The URL parsed for matching scripts, or `nil` when there is none or it does not parse.
    public var pageURL: PageURL? {
        url.flatMap { try? PageURL($0) }
    }

    /// The site the page belongs to (host and port), which per-site scripts are kept under.
    public var site: Site? {
        pageURL.map(Site.init(url:))
    }

    /// The title as it should be shown: cleaned by ``PageTitleText``, or the site's name when the
    /// page has no visible title, or "PageScript" when there is no site either.
    public var displayTitle: String {
        PageTitleText.display(title, fallback: site?.displayName ?? "PageScript")
    }
}
