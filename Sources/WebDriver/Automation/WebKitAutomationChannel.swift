import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SystemSupport

/// PageScript's own way into the automation session WebKitWebDriver opened in a MiniBrowser that
/// PageScript started, through the `InspectorRelay` (in `Engines`) between the two.
///
/// The browser's automation server takes one client, the driver. The relay in front of it reads
/// the connection as whole ``AutomationFrame``s: it learns which connection and target the
/// driver set up, and can then send Automation commands of its own on that connection, with
/// message IDs the driver never uses (from 2³²), and take their replies out of the stream before
/// the rest reaches the driver. A WebDriver Execute Script is three such commands sent by the
/// driver (wait for a navigation in progress, ask whether a dialog is open, evaluate); sent from
/// here they skip the driver's HTTP server and its own round trips to the browser
/// (``WebDriverSession/executeScript(serializedScript:arguments:timeout:)`` uses it once
/// `WebKitBrowser.sessionStarted(_:driver:)` (in `Engines`) has handed it over).
public final class WebKitAutomationChannel: Sendable {
    /// Why a command sent here got no result.
    enum Failure: Error, Equatable {
        /// The driver has not set up its connection to the automation target yet.
        case notAttached
        /// The browser's connection closed before the reply came.
        case closed
        /// No reply within the time given.
        case timedOut
        /// The browser answered with an error: its name (`JavaScriptError`) and details.
        case failed(name: String, details: String)
    }

    private struct State {
        var browser: (any Channel)?
        var connection: UInt64?
        var target: UInt64?
        var flag: UInt8 = 1
        var nextID: Int64 = firstID
        var pending: [Int64: EventLoopPromise<JSONValue>] = [:]
        /// The ID of the driver's `createBrowsingContext` command, while it is unanswered.
        var contextRequest: Int64?
        /// Whether the driver's session has its window: the window's page target is set up for
        /// inspection only then (set up before, it stays deaf to the window's documents).
        var hasWindow = false
    }

    /// The first message ID PageScript uses: the driver counts from 1, and the browser reads an
    /// ID as a 32-bit integer.
    static let firstID: Int64 = 1 << 30

    private let state = NIOLockedValueBox(State())

    /// What the browser's Web Inspector says about the window's documents.
    let inspector = WebKitPageInspector()

    /// A channel that is not attached yet; the relay attaches it to the connection it relays.
    public init() {}

    /// Whether commands can be sent: the browser is connected and the driver has set up its
    /// connection to the automation target.
    public var isAttached: Bool {
        state.withLockedValue { $0.browser != nil && $0.connection != nil }
    }

    // MARK: Called by the relay, on the connection's event loop

    /// The relay connected the driver to the browser on `channel`: commands go there from now on.
    package func browserConnected(_ channel: any Channel) {
        let abandoned = state.withLockedValue { state in
            defer { state = State(browser: channel, nextID: state.nextID) }
            return Array(state.pending.values)
        }
        inspector.reset()
        abandoned.forEach { $0.fail(Failure.closed) }
    }

    /// A frame from the driver to the browser, seen on its way: `Setup` names the connection and
    /// target the driver's commands travel on, `StartAutomationSession` starts a session whose
    /// window (`createBrowsingContext`) the inspector waits for.
    package func driverSent(_ frame: ByteBuffer) {
        guard let parsed = AutomationFrame(frame) else { return }
        switch parsed.name {
        case "Setup":
            guard let identifiers = parsed.identifiers else { return }
            let flag = frame.getInteger(at: frame.readerIndex + 4, as: UInt8.self) ?? 1
            state.withLockedValue { state in
                state.connection = identifiers.connection
                state.target = identifiers.target
                state.flag = flag
            }
        case "StartAutomationSession":
            // A new session: its window is not open yet.
            state.withLockedValue { state in
                state.hasWindow = false
                state.contextRequest = nil
            }
            inspector.sessionStarted()
        case "SendMessageToBackend":
            // The driver's commands start `{"id":N,"method":"Automation.…"`: only their start is read.
            guard let message = parsed.message, let id = Self.leadingID(of: message),
                  message.prefix(80).contains(bytes: Self.contextCommand) else { return }
            state.withLockedValue { $0.contextRequest = id }
        default:
            return
        }
    }

    /// The method of the driver's command that opens the session's window.
    private static let contextCommand = Array("\"method\":\"Automation.createBrowsingContext\"".utf8)

    /// A frame from the browser to the driver: `true` when it was the reply to a command of
    /// PageScript's (consumed here, not passed on).
    package func browserSent(_ frame: ByteBuffer) -> Bool {
        // Only replies and the inspected page's messages can be PageScript's
        // (`SendMessageToFrontend`: its 14th letter is checked first), and WebKit writes a
        // reply's ID last.
        guard frame.readableBytes > 40,
              frame.getInteger(at: frame.readerIndex + AutomationFrame.headerSize + 13, as: UInt8.self) == UInt8(ascii: "F"),
              let parsed = AutomationFrame(frame), parsed.name == "SendMessageToFrontend", let message = parsed.message
        else {
            if frame.getInteger(at: frame.readerIndex + AutomationFrame.headerSize, as: UInt8.self) == UInt8(ascii: "S"),
               let parsed = AutomationFrame(frame), parsed.name == "SetTargetList" {
                targetsListed(parsed.parameters)
            }
            return false
        }
        if let target = parsed.identifiers?.target, inspector.owns(target) {
            let replies = inspector.received(message, from: target)
            if !replies.isEmpty { send(replies, toPage: target) }
            return true
        }
        guard let id = Self.trailingID(of: message) else { return false }
        guard id >= Self.firstID else {
            let opened = state.withLockedValue { state in
                guard state.contextRequest == id else { return false }
                state.contextRequest = nil
                state.hasWindow = true
                return true
            }
            if opened { inspectSessionWindow() }
            return false
        }
        let promise = state.withLockedValue { $0.pending.removeValue(forKey: id) }
        // A late reply to a command that timed out is dropped: the driver never sent it.
        guard let promise else { return true }
        do {
            promise.succeed(try JSONValue(parsing: Array(message)))
        } catch {
            promise.fail(Failure.failed(name: "MalformedReply", details: "\(error)"))
        }
        return true
    }

    /// The browser listed its targets: the window's page is set up for inspection once the
    /// driver's session has its window.
    private func targetsListed(_ parameters: ByteBuffer) {
        inspector.targetsListed(parameters)
        if state.withLockedValue(\.hasWindow) { inspectSessionWindow() }
    }

    /// Sets the session's window up for inspection once it can be told among the targets, unless
    /// it was set up for a session before.
    private func inspectSessionWindow() {
        guard let window = inspector.sessionWindow(), window.needsSetUp else { return }
        setUpInspection(of: window.page)
    }

    /// Sets the page target `page` up on the driver's connection; the browser then announces the
    /// page's process (`Target.targetCreated`), whose domains the inspector enables.
    private func setUpInspection(of page: UInt64) {
        let prepared: (any Channel, ByteBuffer)? = state.withLockedValue { state in
            guard let browser = state.browser, let connection = state.connection else { return nil }
            return (browser, AutomationFrame.setup(connection: connection, target: page, flag: state.flag, allocator: browser.allocator))
        }
        guard let (browser, frame) = prepared else { return }
        browser.writeAndFlush(frame, promise: nil)
    }

    /// Turns the inspected window's events on for a navigation about to be asked for (they go
    /// before the driver's command, on the same connection).
    func followNavigation() {
        guard let page = inspector.target else { return }
        let messages = inspector.followingNavigation()
        guard !messages.isEmpty else { return }
        if let browser = state.withLockedValue({ $0.browser }) {
            browser.eventLoop.execute { [self] in send(messages, toPage: page) }
        }
    }

    /// Sends `messages` to the page target `page`, unanswered (their replies are read by the
    /// inspector).
    private func send(_ messages: [String], toPage page: UInt64) {
        let prepared: (any Channel, UInt64, UInt8)? = state.withLockedValue { state in
            guard let browser = state.browser, let connection = state.connection else { return nil }
            return (browser, connection, state.flag)
        }
        guard let (browser, connection, flag) = prepared else { return }
        for message in messages {
            browser.write(AutomationFrame.sendMessageToBackend(connection: connection, target: page, flag: flag, message: message,
                                                               allocator: browser.allocator), promise: nil)
        }
        browser.flush()
    }

    /// The browser's connection closed: every command waiting fails.
    package func browserDisconnected(_ channel: any Channel) {
        let abandoned: [EventLoopPromise<JSONValue>] = state.withLockedValue { state in
            guard let current = state.browser, current === channel else { return [] }
            defer { state = State(nextID: state.nextID) }
            return Array(state.pending.values)
        }
        abandoned.forEach { $0.fail(Failure.closed) }
    }

    // MARK: Commands

    /// Sends `method` with `parameters` (a JSON object's text) to the automation target and
    /// returns its `result`, or fails with ``Failure``. Commands sent one after another without
    /// waiting travel in that order and are answered as the browser finishes them.
    func send(_ method: String, parameters: String, timeout: Double) -> EventLoopFuture<JSONValue> {
        let prepared: Result<(any Channel, ByteBuffer, EventLoopPromise<JSONValue>, Int64), Failure> = state.withLockedValue { state in
            guard let browser = state.browser, let connection = state.connection, let target = state.target else {
                return .failure(.notAttached)
            }
            let id = state.nextID
            state.nextID += 1
            let promise = browser.eventLoop.makePromise(of: JSONValue.self)
            state.pending[id] = promise
            let message = "{\"id\":\(id),\"method\":\"Automation.\(method)\",\"params\":\(parameters)}"
            let frame = AutomationFrame.sendMessageToBackend(connection: connection, target: target, flag: state.flag,
                                                             message: message, allocator: browser.allocator)
            return .success((browser, frame, promise, id))
        }
        switch prepared {
        case let .failure(failure):
            return MultiThreadedEventLoopGroup.singleton.next().makeFailedFuture(failure)
        case let .success((browser, frame, promise, id)):
            let timer = browser.eventLoop.scheduleTask(in: .nanoseconds(Int64(max(timeout, 0) * 1_000_000_000))) { [state] in
                if let expired = state.withLockedValue({ $0.pending.removeValue(forKey: id) }) { expired.fail(Failure.timedOut) }
            }
            browser.writeAndFlush(frame).whenFailure { [state] _ in
                if let unsent = state.withLockedValue({ $0.pending.removeValue(forKey: id) }) { unsent.fail(Failure.closed) }
            }
            return promise.futureResult.always { _ in timer.cancel() }.flatMapThrowing { reply in
                if let error = reply["error"] {
                    let text = error["message"]?.stringValue ?? ""
                    let name = text.prefix { $0 != ";" }
                    throw Failure.failed(name: String(name), details: String(text.dropFirst(name.count + 1)))
                }
                return reply["result"] ?? .null
            }
        }
    }

    /// The number after `{"id":` at the start of a command.
    static func leadingID(of message: ByteBufferView) -> Int64? {
        let key = Array("{\"id\":".utf8)
        guard message.starts(with: key) else { return nil }
        var value: Int64 = 0
        var digits = 0
        for byte in message.dropFirst(key.count) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            guard value <= (Int64.max - 9) / 10 else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The number after the last `"id":` of a reply (where WebKit writes it), if it ends the message.
    static func trailingID(of message: ByteBufferView) -> Int64? {
        guard message.last == UInt8(ascii: "}") else { return nil }
        var digits = message.index(before: message.endIndex)
        var value: Int64 = 0
        var scale: Int64 = 1
        while digits > message.startIndex {
            let previous = message.index(before: digits)
            let byte = message[previous]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            guard scale <= Int64.max / 10 else { return nil }
            value += Int64(byte - UInt8(ascii: "0")) * scale
            scale *= 10
            digits = previous
        }
        guard scale > 1 else { return nil }
        let key = Array("\"id\":".utf8)
        guard message.distance(from: message.startIndex, to: digits) >= key.count else { return nil }
        let keyStart = message.index(digits, offsetBy: -key.count)
        return message[keyStart..<digits].elementsEqual(key) ? value : nil
    }
}
