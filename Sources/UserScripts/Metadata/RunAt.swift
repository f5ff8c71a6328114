/// When a script runs automatically on the pages its rules match (`@run-at`), in the order the
/// moments come in a page load.
///
/// A script without `@run-at` runs at ``documentIdle``, as in Tampermonkey. `@run-at context-menu`
/// is not a moment: it makes the script run only on demand (see ``RunMode``).
public enum RunAt: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// As soon as the document exists, before the page's own scripts run.
    case documentStart = "document-start"
    /// As soon as the document has a body.
    case documentBody = "document-body"
    /// When the document has been parsed (`DOMContentLoaded`).
    case documentEnd = "document-end"
    /// After the document and its resources have loaded (`load`), when the page is idle.
    case documentIdle = "document-idle"

    /// The value as written after `@run-at`.
    public var description: String { rawValue }

    /// Earlier moments come first: start, body, end, idle.
    public static func < (lhs: RunAt, rhs: RunAt) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        switch self {
        case .documentStart: 0
        case .documentBody: 1
        case .documentEnd: 2
        case .documentIdle: 3
        }
    }
}
