import NIOConcurrencyHelpers
import NIOCore
import SystemSupport

/// What WebKit's Web Inspector says about the top-level documents of the window a session
/// drives, for what the page itself cannot tell: the HTTP status of its main document (WebKitGTK
/// gives pages no `responseStatus`), and whether the document shown is the one PageScript's
/// navigation made or one another navigation, started by the document being left, put there
/// instead.
///
/// MiniBrowser's automation server lists the window's page (a `WebPage` target) beside the
/// automation session in every `SetTargetList` it sends on the driver's connection.
/// ``WebKitAutomationChannel`` sets that target up on the same connection, and the inspector
/// enables its `Page` and `Network` domains in each of the page's processes (`Target`
/// multiplexing) while a navigation lands: from the moment PageScript asks for one
/// (``followingNavigation()``) until a main-frame document is committed, since a page loads
/// slower with them on. Their events, which the driver never asked for, are read here and taken
/// out of the stream. Only main-frame documents are kept: each navigation's first address, the
/// address its server's redirects ended at, its status, and when it was committed
/// (`Page.frameNavigated`).
final class WebKitPageInspector: Sendable {
    private struct State {
        /// The `WebPage` targets the browser last listed.
        var listed: [UInt64] = []
        /// Those listed when the current session started (windows of sessions before).
        var listedBefore: Set<UInt64> = []
        /// How many sessions started on this browser.
        var sessions = 0
        /// Whether the current session's window was found among the targets.
        var found = false
        /// Every `WebPage` target set up on this browser (a target is set up once: set up
        /// again, it leaves the browser's automation unanswered).
        var setUp: Set<UInt64> = []
        /// The current session's window, the `WebPage` target whose documents are recorded.
        var target: UInt64?
        var mainFrames: Set<String> = []
        /// The main frame's navigations (by loader) and commits.
        var record = NavigationRecord()
        var nextID: Int64 = WebKitAutomationChannel.firstID
        /// Whether the page's process answered its set-up: its events flow from then on.
        var ready = false
        /// Whether a navigation already waited in vain for ``ready``.
        var waitedInVain = false
        /// The processes of the current window's page (`page-N`), whose domains are enabled
        /// while a navigation is followed.
        var processes: [String] = []
        /// Whether their `Page` and `Network` events are on.
        var following = true
    }

    private let state = NIOLockedValueBox(State())

    /// The `WebPage` target being inspected, if any.
    var target: UInt64? {
        state.withLockedValue(\.target)
    }

    /// Whether messages from `target` are the inspector's (a window it set up, now or for a
    /// session before), not the driver's.
    func owns(_ target: UInt64) -> Bool {
        state.withLockedValue { $0.setUp.contains(target) }
    }

    /// Notes the windows' pages, from a `SetTargetList` frame's parameters (`(ta(tsssb))`: the
    /// connection, then each target's ID, type, name, address and whether it is being
    /// debugged).
    func targetsListed(_ parameters: ByteBuffer) {
        let bytes = parameters.readableBytesView
        let marker = Array("WebPage\0".utf8)
        var pages: [UInt64] = []
        var index = bytes.startIndex + 16
        while index + marker.count <= bytes.endIndex {
            if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker),
               let id = parameters.getInteger(at: parameters.readerIndex + (index - bytes.startIndex) - 8, endianness: .little, as: UInt64.self) {
                pages.append(id)
                index += marker.count
            } else {
                index += 1
            }
        }
        state.withLockedValue { $0.listed = pages }
    }

    /// A session starts: its window is not open yet, and the windows listed now are others'.
    func sessionStarted() {
        state.withLockedValue { state in
            state = State(listedBefore: Set(state.listed), sessions: state.sessions + 1, setUp: state.setUp,
                          nextID: state.nextID)
            state.listed = Array(state.listedBefore)
        }
    }

    /// The current session's window once its `createBrowsingContext` was answered, when it can
    /// be told: a page listed that was not when the session started, or, for the browser's
    /// first session, MiniBrowser's only window (which the first session's context takes).
    /// Returns it, the first time only, with whether it needs setting up.
    func sessionWindow() -> (page: UInt64, needsSetUp: Bool)? {
        state.withLockedValue { state in
            guard !state.found else { return nil }
            let opened = state.listed.filter { !state.listedBefore.contains($0) }
            let first = state.sessions == 1 && state.listed.count == 1 ? state.listed.first : nil
            guard let page = opened.min() ?? first else { return nil }
            state.found = true
            state.target = page
            let needsSetUp = state.setUp.insert(page).inserted
            // A window set up for a session before has been answering since.
            state.ready = !needsSetUp
            return (page, needsSetUp)
        }
    }

    /// The driver connected to the browser again (it does for each session): the record starts
    /// afresh, but the windows and what was set up stay the browser's (a window set up on an
    /// earlier connection keeps its inspection there, and is never set up twice).
    func reset() {
        state.withLockedValue { state in
            state = State(listed: state.listed, sessions: state.sessions, setUp: state.setUp, nextID: state.nextID)
        }
    }

    /// The messages that set an inspected process's page up: its `Page` and `Network` events,
    /// and its frame tree (which names the main frame).
    private func enabling(processTarget: String) -> [String] {
        messages(["Page.enable", "Network.enable", "Page.getResourceTree"], to: processTarget)
    }

    /// `methods` wrapped for the page's process `processTarget`.
    private func messages(_ methods: [String], to processTarget: String) -> [String] {
        methods.map { method in
            let id = state.withLockedValue { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            let inner = "{\"id\":\(id),\"method\":\"\(method)\"}"
            let outer: JSONValue = ["targetId": .string(processTarget), "message": .string(inner)]
            return "{\"id\":\(id),\"method\":\"Target.sendMessageToTarget\",\"params\":\(outer.serialized)}"
        }
    }

    /// The messages that turn the page's events on for a navigation about to be asked for:
    /// they are off between navigations, since a page with them on loads slower.
    func followingNavigation() -> [String] {
        let processes: [String] = state.withLockedValue { state in
            guard !state.following else { return [] }
            state.following = true
            return state.processes
        }
        return processes.flatMap { messages(["Page.enable", "Network.enable"], to: $0) }
    }

    /// The messages that turn the page's events off once a main-frame document was committed
    /// (its response came before): what the record needs of the navigation is in.
    private func notFollowing() -> [String] {
        let processes: [String] = state.withLockedValue { state in
            guard state.following else { return [] }
            state.following = false
            return state.processes
        }
        return processes.flatMap { messages(["Network.disable", "Page.disable"], to: $0) }
    }

    /// Reads a message from `target`, a window the inspector set up. Returns the messages to send
    /// it (a new process of the page set up, events turned off after a commit); the events of
    /// windows other than the current session's are not recorded.
    func received(_ message: ByteBufferView, from target: UInt64) -> [String] {
        guard Self.interesting.contains(where: { message.contains(bytes: $0) }),
              let outer = try? JSONValue(parsing: Array(message)) else { return [] }
        switch outer["method"]?.stringValue {
        case "Target.targetCreated":
            guard let info = outer["params"]?["targetInfo"], info["type"]?.stringValue == "page",
                  let id = info["targetId"]?.stringValue else { return [] }
            let current = state.withLockedValue { state in
                guard state.target == target else { return false }
                state.processes.append(id)
                state.following = true
                return true
            }
            return current ? enabling(processTarget: id) : []
        case "Target.dispatchMessageFromTarget":
            guard state.withLockedValue({ $0.target == target }), let text = outer["params"]?["message"]?.stringValue, let inner = try? JSONValue(parsing: text) else { return [] }
            return record(inner) ? notFollowing() : []
        default:
            return []
        }
    }

    /// Records `event`; `true` when it was a main-frame document's commit.
    private func record(_ event: JSONValue) -> Bool {
        let parameters = event["params"] ?? .null
        switch event["method"]?.stringValue {
        case "Network.requestWillBeSent":
            guard let loader = parameters["loaderId"]?.stringValue, let frame = parameters["frameId"]?.stringValue,
                  let url = parameters["request"]?["url"]?.stringValue, parameters["documentURL"]?.stringValue == url else { return false }
            state.withLockedValue { state in
                guard state.mainFrames.isEmpty || state.mainFrames.contains(frame) else { return }
                state.record.requested(loader, url: url)
            }
            return false
        case "Network.responseReceived":
            guard parameters["type"]?.stringValue == "Document", let loader = parameters["loaderId"]?.stringValue,
                  let response = parameters["response"], let status = response["status"]?.intValue else { return false }
            state.withLockedValue { $0.record.responded(loader, url: response["url"]?.stringValue, status: status) }
            return false
        case "Page.frameNavigated":
            guard let frame = parameters["frame"], frame["parentId"] == nil, let id = frame["id"]?.stringValue,
                  let loader = frame["loaderId"]?.stringValue, let url = frame["url"]?.stringValue else { return false }
            state.withLockedValue { state in
                state.mainFrames.insert(id)
                state.record.committed(loader, url: url)
            }
            return true
        default:
            // The reply to `Page.getResourceTree`, the last of the set-up: the main frame.
            if let main = event["result"]?["frameTree"]?["frame"]?["id"]?.stringValue {
                state.withLockedValue { state in
                    state.mainFrames.insert(main)
                    state.ready = true
                }
            }
            return false
        }
    }

    /// The messages worth reading; every other (most network events) passes unread.
    private static let interesting: [[UInt8]] = [
        "Network.requestWillBeSent", "Network.responseReceived", "Page.frameNavigated", "frameTree", "Target.targetCreated",
    ].map { Array($0.utf8) }

    // MARK: Questions

    /// Whether a navigation should wait for the page's set-up first: it was set up and has not
    /// answered yet (a window's first document starts its process, which the set-up waits
    /// for), and no navigation waited in vain before.
    var isSettingUp: Bool {
        state.withLockedValue { $0.found && !$0.ready && !$0.waitedInVain }
    }

    /// Notes that a navigation waited for the set-up in vain: the next ones do not wait.
    func gaveUpWaiting() {
        state.withLockedValue { $0.waitedInVain = true }
    }

    /// Where the inspector's record stands now: what ``landing(since:requested:)`` looks after.
    var mark: Int {
        state.withLockedValue(\.record.mark)
    }

    /// What became of a navigation to `requested` asked for after `mark`.
    func landing(since mark: Int, requested: String) -> DocumentLanding {
        state.withLockedValue { $0.record.landing(since: mark, requested: requested) }
    }
}
