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

    public init(kind: String, message: String, accepted: Bool? = nil, answer: String? = nil, openedByPage: Bool = false) {
        self.kind = kind
        self.message = message
        self.accepted = accepted
        self.answer = answer
        self.openedByPage = openedByPage
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
