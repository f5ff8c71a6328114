/// How `alert`, `confirm` and `prompt` are answered while a script runs: the script's own calls
/// (which never open a real dialog) and any dialog the page opens by itself.
///
/// Written as `dismiss`, `accept` or `accept=TEXT` (``init(argument:)``).
public enum DialogPolicy: Sendable, Equatable, CustomStringConvertible {
    /// `confirm` returns `true`, `prompt` its default text; a page's dialog is accepted.
    case accept
    /// `confirm` returns `false`, `prompt` `null`; a page's dialog is dismissed.
    case dismiss
    /// As ``accept``, with `prompt` answered by this text (typed into a page's own prompt).
    case answer(String)

    /// Reads `dismiss`, `accept` or `accept=TEXT`; `nil` for anything else.
    public init?(argument: String) {
        switch argument {
        case "accept": self = .accept
        case "dismiss": self = .dismiss
        default:
            guard argument.hasPrefix("accept=") else { return nil }
            self = .answer(String(argument.dropFirst("accept=".count)))
        }
    }

    /// The forms ``init(argument:)`` reads, for a command's help.
    public static let argumentForms = ["accept", "dismiss", "accept=TEXT"]

    /// Whether dialogs are accepted (`confirm` returns `true`).
    public var accepts: Bool { self != .dismiss }

    /// The text a `prompt` gets, when the policy names one.
    public var promptAnswer: String? {
        if case let .answer(text) = self { return text }
        return nil
    }

    public var description: String {
        switch self {
        case .accept: "accept"
        case .dismiss: "dismiss"
        case let .answer(text): "accept=\(text)"
        }
    }
}
