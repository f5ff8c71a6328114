import Foundation
import UserScripts

/// Something the person at the terminal asks a ``BrowserFollower`` to do on the page it follows.
///
/// ```swift
/// let requests = BrowseRequests()
/// requests.send(.menuCommand(script: id, name: "Reset"))
/// ```
public enum BrowseRequest: Sendable, Equatable {
    /// Run the `GM_registerMenuCommand` command `name` that library script `script` registered
    /// on the current page.
    case menuCommand(script: ScriptID, name: String)
    /// Switch the current page's matching scripts off for its site when any of them runs there,
    /// else switch those that were off for the site on again (and run them on the page now).
    /// Uses the library's per-site switch (``ScriptLibrary/setDisabled(_:id:on:)``).
    case toggleScriptsForSite
    /// Open the editor on the page the window shows, with the script saved for its site: the
    /// follower stops looking at the browser while the editor runs and goes on once it ends
    /// (see ``BrowserFollower/follow(requests:isStopped:report:edit:)``).
    case editScript
}

/// The requests waiting for a follower, which takes them between its looks at the page, so that
/// they never run in the middle of the follower's own calls.
///
/// ```swift
/// let requests = BrowseRequests()
/// requests.send(.toggleScriptsForSite)   // from the thread that reads keys
/// ```
public final class BrowseRequests: @unchecked Sendable {
    // Guards `waiting`, the only mutable state, which makes @unchecked Sendable sound.
    private let lock = NSLock()
    private var waiting: [BrowseRequest] = []

    public init() {}

    /// Queues `request` for the follower's next look. An editor request already waiting is not
    /// queued again: `e` pressed twice opens one editor (a menu command's key or `t` pressed twice
    /// does its work twice).
    public func send(_ request: BrowseRequest) {
        lock.withLock {
            if request == .editScript, waiting.contains(.editScript) { return }
            waiting.append(request)
        }
    }

    /// Takes every waiting request, oldest first.
    func take() -> [BrowseRequest] {
        lock.withLock {
            defer { waiting = [] }
            return waiting
        }
    }
}
