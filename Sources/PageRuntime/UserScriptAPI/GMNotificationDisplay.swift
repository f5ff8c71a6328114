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
    private let images: ImageFolder
    private let state: LockedNotifications

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

    private init() {
        images = ImageFolder()
        state = LockedNotifications(images: images)
    }

    /// Shows one notification (`details`: the page half's `{"text","title","image"?,"tag"?,"silent"?,"timeout"?}`)
    /// that request `request` of `run` made in the document of `entry`. A notification the
    /// service refused is answered as closed at once. Returns a problem to report, if any.
    func show(_ details: JSONValue, request: JSONValue, of run: GMScriptRun, in entry: RuntimeEntry) async -> String? {
        guard let notifications = service.get() else { return nil }
        var owner = Owner(entry: entry, request: request)
        var notification = DesktopNotification(summary: details["title"]?.stringValue ?? "", body: details["text"]?.stringValue ?? "")
        if notification.summary.isEmpty { notification.summary = run.script.name }
        notification.silent = details["silent"] == .bool(true)
        var problem: String?
        if let image = details["image"]?.stringValue, !image.isEmpty {
            if image.hasPrefix("/") {
                notification.imagePath = image
            } else if let url = URL(string: image), url.isFileURL {
                notification.imagePath = url.path(percentEncoded: false)
            } else if let picture = Self.picture(inDataURL: image) {
                notification.imagePath = images.write(picture.bytes, extension: picture.extension)
                owner.imageFile = notification.imagePath
            } else {
                problem = "the image of a notification of \(run.script.name) is not shown: only file: images and data: PNG, JPEG, GIF and WebP images are"
            }
        }
        let timeout = details["timeout"]?.doubleValue.flatMap { $0 > 0 && $0 < Double(Int32.max) ? $0 : nil }
        notification.expireTimeout = timeout.map { Int32($0) }
        let tag = details["tag"]?.stringValue.map { run.id.rawValue + "\n" + $0 }
        notification.replacesID = tag.flatMap(state.openID(tagged:)) ?? 0
        guard let id = await notifications.show(notification) else {
            owner.imageFile.map(images.release)
            state.answerAtOnce(owner)
            return "the notification service did not show a notification of \(run.script.name)"
        }
        state.opened(id, by: owner, tag: tag)
        if let timeout {
            // A service may keep a notification longer than asked (`expire_timeout` is a wish).
            Task { [service, state] in
                try? await Task.sleep(for: .milliseconds(timeout))
                guard state.isOpen(id, by: owner), let notifications = service.get() else { return }
                await notifications.closeNotification(id)
                state.answer(id, clicked: false)
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

    /// Stops hearing the service (its monitor process is stopped and reaped) and removes the
    /// image files written for it; notifications still open are never answered.
    public func stop() {
        service.take()?.stop()
        images.remove()
    }

    /// The image of a `data:` URL (`GM_getResourceURL`'s kind) with a file extension for it, when
    /// it is a base64 PNG, JPEG, GIF or WebP: the formats a notification daemon reads with no
    /// reference to anything else (an SVG may name other files).
    static func picture(inDataURL url: String) -> (bytes: Data, extension: String)? {
        let types = ["image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"]
        guard url.hasPrefix("data:"), let comma = url.firstIndex(of: ",") else { return nil }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased().split(separator: ";").map(String.init)
        guard let type = header.first, let fileExtension = types[type], header.last == "base64",
              let bytes = Data(base64Encoded: String(url[url.index(after: comma)...]), options: .ignoreUnknownCharacters) else { return nil }
        return (bytes, fileExtension)
    }

    /// Who made a notification: a request of one document's runtime; and the file written for
    /// its `data:` image, removed once it is answered (the daemon has it then).
    struct Owner: Sendable, Equatable {
        let entry: RuntimeEntry
        let request: JSONValue
        var imageFile: String?
    }
}

/// A folder of this process's own, made on the first image, for `data:` images: a notification
/// daemon reads an image from a file.
private final class ImageFolder: @unchecked Sendable {
    private let lock = NSLock()
    private var folder: String?
    private var count = 0

    /// Writes `bytes` to a new file (readable by this user only); its path, or `nil`.
    func write(_ bytes: Data, extension fileExtension: String) -> String? {
        lock.withLock {
            if folder == nil {
                var template = Array((NSTemporaryDirectory() + "pagescript-notifications-XXXXXX").utf8CString)
                guard let made = mkdtemp(&template) else { return nil }
                folder = String(cString: made)
            }
            guard let folder else { return nil }
            count += 1
            let path = folder + "/image-\(count).\(fileExtension)"
            return FileManager.default.createFile(atPath: path, contents: bytes, attributes: [.posixPermissions: 0o600]) ? path : nil
        }
    }

    /// Removes the image at `path`, and the folder once it is empty: a session that ends on a
    /// signal, with no time to remove it, leaves at most the images of notifications still open.
    func release(_ path: String) {
        lock.withLock {
            unlink(path)
            if let folder, rmdir(folder) == 0 { self.folder = nil }
        }
    }

    /// Removes the folder and its images.
    func remove() {
        lock.withLock {
            if let folder { try? FileManager.default.removeItem(atPath: folder) }
            folder = nil
        }
    }
}

private final class LockedService: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: DesktopNotifications?

    func set(_ notifications: DesktopNotifications) { lock.withLock { self.notifications = notifications } }
    func get() -> DesktopNotifications? { lock.withLock { notifications } }

    /// The service, which is gone from here from now on (stopped: nothing more is shown).
    func take() -> DesktopNotifications? {
        lock.withLock {
            defer { notifications = nil }
            return notifications
        }
    }
}

/// The notifications open, by the service's ID, and the answers not handed over yet.
private final class LockedNotifications: @unchecked Sendable {
    typealias Owner = GMNotificationDisplay.Owner
    private let lock = NSLock()
    private var open: [UInt32: Owner] = [:]
    private var tags: [String: UInt32] = [:]
    private var answers: [(owner: Owner, clicked: Bool)] = []
    private let images: ImageFolder

    init(images: ImageFolder) {
        self.images = images
    }

    /// The ID of the notification still open under `tag`.
    func openID(tagged tag: String) -> UInt32? {
        lock.withLock { tags[tag].flatMap { open[$0] != nil ? $0 : nil } }
    }

    /// `id` is shown for `owner`; one it replaces (the same ID) is answered as closed.
    func opened(_ id: UInt32, by owner: Owner, tag: String?) {
        let replaced = lock.withLock { () -> Owner? in
            let replaced = open[id]
            if let replaced { answers.append((replaced, false)) }
            open[id] = owner
            if let tag { tags[tag] = id }
            return replaced
        }
        replaced?.imageFile.map(images.release)
    }

    func isOpen(_ id: UInt32, by owner: Owner) -> Bool {
        lock.withLock { open[id] == owner }
    }

    /// The service's answer about `id`: the first one counts (a click is followed by a close).
    func answer(_ id: UInt32, clicked: Bool) {
        let answered = lock.withLock { () -> Owner? in
            guard let owner = open.removeValue(forKey: id) else { return nil }
            answers.append((owner, clicked))
            return owner
        }
        answered?.imageFile.map(images.release)
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
