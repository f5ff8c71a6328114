import Foundation
import SystemSupport
import UserScripts

/// Shows userscripts' `GM_notification` calls as desktop notifications
/// (``SystemSupport/DesktopNotifications``), for a session with a display (`browse`, `edit`), and
/// keeps each one's answer (clicked, or closed unclicked) until the document that made it is
/// served again: the page half then calls `onclick` and `ondone(true)`, or `ondone(false)`.
///
/// An answer goes only to the request that made the notification: the document's runtime (its
/// entry) and the request's number there. A later notification of the same script with the same
/// `tag` replaces the one shown (the `Notify` call's `replaces_id`), which is answered as closed.
/// A `timeout` closes the notification after that many milliseconds.
///
/// ```swift
/// let display = try GMNotificationDisplay.connect()
/// let host = GMHost(libraryDirectory: library.directory, notifications: display)
/// // … browse …
/// await host.shutdown() // stops the display too
/// ```
public final class GMNotificationDisplay: Sendable {
    private let service = LockedService()
    private let state = LockedNotifications()

    /// Connects to the session bus's notification service (see
    /// ``SystemSupport/DesktopNotifications/connect(environment:events:)``); blocks while it looks.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(DesktopNotifications.Unavailable) -> GMNotificationDisplay {
        let display = GMNotificationDisplay()
        let state = display.state
        let notifications = try DesktopNotifications.connect(environment: environment) { event in
            switch event {
            case let .actionInvoked(id, _): state.answer(id, clicked: true)
            case let .closed(id, _): state.answer(id, clicked: false)
            }
        }
        display.service.set(notifications)
        return display
    }

    private init() {}

    /// Shows one notification (`details`: the page half's `{"text","title","image"?,"tag"?,"silent"?,"timeout"?}`)
    /// that request `request` of `run` made in the document of `entry`. A notification the
    /// service refused is answered as closed at once. Returns a problem to report, if any.
    func show(_ details: JSONValue, request: JSONValue, of run: GMScriptRun, in entry: RuntimeEntry) async -> String? {
        guard let notifications = service.get() else { return nil }
        let owner = Owner(entry: entry, request: request)
        var notification = DesktopNotification(summary: details["title"]?.stringValue ?? "", body: details["text"]?.stringValue ?? "")
        if notification.summary.isEmpty { notification.summary = run.script.name }
        notification.silent = details["silent"] == .bool(true)
        var problem: String?
        if let image = details["image"]?.stringValue, !image.isEmpty {
            if image.hasPrefix("/") {
                notification.imagePath = image
            } else if let url = URL(string: image), url.isFileURL {
                notification.imagePath = url.path(percentEncoded: false)
            } else {
                problem = "the image of a notification of \(run.script.name) is not shown: only file: images are"
            }
        }
        let timeout = details["timeout"]?.doubleValue.flatMap { $0 > 0 && $0 < Double(Int32.max) ? $0 : nil }
        notification.expireTimeout = timeout.map { Int32($0) }
        let tag = details["tag"]?.stringValue.map { run.id.rawValue + "\n" + $0 }
        notification.replacesID = tag.flatMap(state.openID(tagged:)) ?? 0
        guard let id = await notifications.show(notification) else {
            state.answerAtOnce(owner)
            return "the notification service did not show a notification of \(run.script.name)"
        }
        state.opened(id, by: owner, tag: tag)
        if let timeout {
            // A service may keep a notification longer than asked (`expire_timeout` is a wish).
            Task {
                try? await Task.sleep(for: .milliseconds(timeout))
                if state.isOpen(id, by: owner) {
                    await notifications.closeNotification(id)
                    state.answer(id, clicked: false)
                }
            }
        }
        return problem
    }

    /// The answers ready for requests of the document of `entry`, as the page half's responses
    /// (`{"request", "response": {"notification": true, "clicked"}}`), taken.
    func takeAnswers(for entry: RuntimeEntry) -> [JSONValue] {
        state.takeAnswers(for: entry).map { answer in
            ["request": answer.owner.request, "response": ["notification": true, "clicked": .bool(answer.clicked)]]
        }
    }

    /// Stops hearing the service (its monitor process is stopped and reaped); notifications still
    /// open are never answered.
    public func stop() {
        service.get()?.stop()
    }

    /// Who made a notification: a request of one document's runtime.
    struct Owner: Sendable, Equatable {
        let entry: RuntimeEntry
        let request: JSONValue
    }
}

private final class LockedService: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: DesktopNotifications?

    func set(_ notifications: DesktopNotifications) { lock.withLock { self.notifications = notifications } }
    func get() -> DesktopNotifications? { lock.withLock { notifications } }
}

/// The notifications open, by the service's ID, and the answers not handed over yet.
private final class LockedNotifications: @unchecked Sendable {
    typealias Owner = GMNotificationDisplay.Owner
    private let lock = NSLock()
    private var open: [UInt32: Owner] = [:]
    private var tags: [String: UInt32] = [:]
    private var answers: [(owner: Owner, clicked: Bool)] = []

    /// The ID of the notification still open under `tag`.
    func openID(tagged tag: String) -> UInt32? {
        lock.withLock { tags[tag].flatMap { open[$0] != nil ? $0 : nil } }
    }

    /// `id` is shown for `owner`; one it replaces (the same ID) is answered as closed.
    func opened(_ id: UInt32, by owner: Owner, tag: String?) {
        lock.withLock {
            if let replaced = open[id] { answers.append((replaced, false)) }
            open[id] = owner
            if let tag { tags[tag] = id }
        }
    }

    func isOpen(_ id: UInt32, by owner: Owner) -> Bool {
        lock.withLock { open[id] == owner }
    }

    /// The service's answer about `id`: the first one counts (a click is followed by a close).
    func answer(_ id: UInt32, clicked: Bool) {
        lock.withLock {
            guard let owner = open.removeValue(forKey: id) else { return }
            answers.append((owner, clicked))
        }
    }

    func answerAtOnce(_ owner: Owner) {
        lock.withLock { answers.append((owner, false)) }
    }

    func takeAnswers(for entry: RuntimeEntry) -> [(owner: Owner, clicked: Bool)] {
        lock.withLock {
            let taken = answers.filter { $0.owner.entry == entry }
            answers.removeAll { $0.owner.entry == entry }
            return taken
        }
    }
}
