import Injection
import UserScripts

/// What ``BrowserFollower`` saw and did, in the order it happened.
public enum BrowseEvent: Sendable {
    /// The browser shows a new document (a link, a typed address, back/forward, a reload).
    case newDocument(url: String, title: String)
    /// The same document changed its address (`history.pushState`, `replaceState`, a hash).
    case addressChanged(url: String, title: String)
    /// The library's scripts that belong there ran (possibly none).
    case ran(url: String, results: [LibraryScriptResult])
    /// Running the scripts failed as a whole (the page went away mid-run, the library is unreadable).
    case failed(url: String, error: InjectionError)
}
