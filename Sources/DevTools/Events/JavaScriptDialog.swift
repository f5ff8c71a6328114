
/// A dialog the page opened: `Page.javascriptDialogOpening` (after `Page.enable`).
///
/// The page is blocked until it is answered with
/// ``DevToolsSession/handleJavaScriptDialog(accept:promptText:)``.
public struct JavaScriptDialog: Sendable, Equatable {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    public let type: String
    /// The dialog's message (the page's text).
    public let message: String
    /// The URL of the frame that opened it.
    public let url: String
    /// The default answer of a `prompt`.
    public let defaultPrompt: String?
    /// The session of the target it came from.
    public let sessionID: String?

    /// Reads a `Page.javascriptDialogOpening` event; `nil` for any other event.
    public init?(_ event: DevToolsEvent) {
        guard event.method == "Page.javascriptDialogOpening", let type = event.parameters["type"]?.stringValue else { return nil }
        self.type = type
        message = event.parameters["message"]?.stringValue ?? ""
        url = event.parameters["url"]?.stringValue ?? ""
        defaultPrompt = event.parameters["defaultPrompt"]?.stringValue
        sessionID = event.sessionID
    }
}
