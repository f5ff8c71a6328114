import SystemSupport

/// An `alert`, `confirm` or `prompt` while a script ran, and how it was answered.
///
/// The script's own calls never open a real dialog: PageScript answers them by the run's
/// ``DialogPolicy``. A dialog the page opened by itself (``openedByPage``) was a real one, which
/// PageScript read and then accepted or dismissed by the same policy.
public struct ScriptDialog: Sendable, Equatable {
    /// The kind of dialog: `alert`, `confirm`, `prompt`, or whatever the browser reported.
    public let kind: String
    /// The dialog's text.
    public let message: String
    /// Whether it was accepted; `nil` for an `alert`, which has nothing to accept.
    public let accepted: Bool?
    /// What `prompt` returned to the script (`nil` when it was dismissed).
    public let answer: String?
    /// Whether the page opened it rather than the script's own call.
    public let openedByPage: Bool
    /// When it opened (milliseconds since 1970, the page's clock or PageScript's, which are the
    /// machine's), for putting dialogs in order; not part of what a dialog is (``==``).
    public let openedAt: Double?

    public init(kind: String, message: String, accepted: Bool? = nil, answer: String? = nil, openedByPage: Bool = false,
                openedAt: Double? = nil) {
        self.kind = kind
        self.message = message
        self.accepted = accepted
        self.answer = answer
        self.openedByPage = openedByPage
        self.openedAt = openedAt
    }

    public static func == (left: ScriptDialog, right: ScriptDialog) -> Bool {
        left.kind == right.kind && left.message == right.message && left.accepted == right.accepted && left.answer == right.answer
            && left.openedByPage == right.openedByPage
    }

    /// `dialogs` in the order they opened: those that say when keep their order among
    /// themselves and take their place by time; one that does not say stays after the one before it.
    public static func inOrder(_ dialogs: [ScriptDialog]) -> [ScriptDialog] {
        var last = -Double.infinity
        let keyed = dialogs.enumerated().map { index, dialog -> (time: Double, index: Int, dialog: ScriptDialog) in
            last = dialog.openedAt ?? last
            return (last, index, dialog)
        }
        return keyed.sorted { ($0.time, $0.index) < ($1.time, $1.index) }.map(\.dialog)
    }

    /// `{"type","message","accepted"?,"answer"?,"byPage"?}`.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "type", value: .string(kind)), (key: "message", value: .string(message))]
        if let accepted { members.append((key: "accepted", value: .bool(accepted))) }
        if kind == "prompt" { members.append((key: "answer", value: answer.map { .string($0) } ?? .null)) }
        if openedByPage { members.append((key: "byPage", value: true)) }
        return .object(members)
    }
}
