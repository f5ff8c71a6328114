import ScriptConsole

/// Something the host tells the editor without being asked, through
/// ``EditorApp/notify(_:)``: the page changed, a message for the status line, text for the
/// terminal's clipboard.
///
/// This is the seam for what the page side reports by itself: a browser that was restarted, a
/// page that navigated, a script's `GM_setClipboard`.
///
/// ```swift
/// app.notify(.page(PageInfo(title: title, url: url), message: "The browser was restarted."))
/// app.notify(.clipboard("copied by the script"))
/// ```
public enum EditorNotice: Hashable, Sendable {
    /// The page is now this one (after a restart, a reload or a navigation); the message, if
    /// any, says what happened.
    case page(PageInfo, message: String?)
    /// A line for the status bar.
    case message(String, isError: Bool)
    /// Text to put on the terminal's clipboard (OSC 52; terminals that do not support it ignore it).
    case clipboard(String)
    /// What the script logged after its run ended (a timer, an event handler, a request's
    /// callback): added to the last run's output.
    case laterConsole([ConsoleMessage])
    /// A question for the person (``HostQuestion``), shown on the status line in turn.
    case ask(HostQuestion)
    /// The question is no longer asked (it was answered for them, after a time without a key);
    /// `message` says what became of it.
    case withdraw(HostQuestion, message: String)
}
