/// When a script runs automatically on a page its patterns match (`@run-at`).
///
/// A script without `@run-at` never runs automatically: it runs only when asked to, on any page.
public enum RunAt: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// As soon as the document exists, before the page's own scripts run.
    case documentStart = "document-start"
    /// When the document has been parsed (`DOMContentLoaded`).
    case documentEnd = "document-end"
    /// After the document and its resources have loaded (`load`), when the page is idle.
    case documentIdle = "document-idle"

    /// The value as written after `@run-at`.
    public var description: String { rawValue }
}
