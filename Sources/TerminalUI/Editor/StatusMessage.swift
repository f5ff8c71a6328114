/// A one-line message in the status bar until the next key.
struct StatusMessage: Hashable, Sendable {
    var text: String
    var isError: Bool

    static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
