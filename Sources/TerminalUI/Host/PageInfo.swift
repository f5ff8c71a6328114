/// The page the script is for, shown in the editor's title bar.
///
/// Both strings come from the page and are escaped before they are drawn.
public struct PageInfo: Hashable, Sendable {
    /// The page's `document.title`.
    public var title: String
    /// The page's `document.URL`.
    public var url: String

    /// Creates page information from the values the page reported.
    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}
