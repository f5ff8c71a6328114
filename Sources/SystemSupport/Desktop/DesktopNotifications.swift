import Foundation

/// Desktop notifications through the freedesktop Notifications service
/// (`org.freedesktop.Notifications`) on the session bus, with GLib's `gdbus` for the calls and
/// `dbus-monitor` for the signals.
///
/// A notification daemon sends `ActionInvoked` and `NotificationClosed` to the connection that
/// made the notification only (dunst names it as the signal's destination); each `gdbus call`
/// is a connection of its own that is gone by then. So the signals are heard through
/// `dbus-monitor`, which the bus lets watch every message of the session's own user, with a
/// match rule that lets through only this interface's signals.
///
/// The text of a notification is passed as data: as one argument of the `gdbus` process (no
/// shell), written as a GVariant string literal, and its body with the markup characters
/// escaped, so that the page's text shows as written.
///
/// ```swift
/// let notifications = try DesktopNotifications.connect { event in handle(event) }
/// let id = await notifications.show(DesktopNotification(summary: "Saved", body: "3 items"))
/// notifications.stop()
/// ```
public final class DesktopNotifications: @unchecked Sendable {
    /// What the daemon said about a notification.
    public enum Event: Sendable, Equatable {
        /// The user invoked an action (`default`: the notification was clicked).
        case actionInvoked(id: UInt32, action: String)
        /// The notification was closed: `reason` 1 expired, 2 dismissed, 3 closed by a call, 4 other.
        case closed(id: UInt32, reason: UInt32)
    }

    /// Why there are no desktop notifications.
    public struct Unavailable: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    private static let service = "org.freedesktop.Notifications"
    private static let objectPath = "/org/freedesktop/Notifications"

    private let gdbus: String
    private let address: String
    private let monitor: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    private init(gdbus: String, address: String, monitor: ChildProcess) {
        self.gdbus = gdbus
        self.address = address
        self.monitor = monitor
    }

    deinit {
        stop()
    }

    /// Connects to the service on the session bus of `environment` (`DBUS_SESSION_BUS_ADDRESS`)
    /// and starts hearing its signals, which go to `events` (from a thread of its own).
    ///
    /// - Throws: ``Unavailable`` when there is no session bus, no `gdbus` or `dbus-monitor`, or
    ///   no notification service answers on the bus.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment,
                               events: @escaping @Sendable (Event) -> Void) throws(Unavailable) -> DesktopNotifications {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            throw Unavailable(description: "there is no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        guard let gdbus = ExecutableLocator.find("gdbus", path: environment["PATH"]),
              let dbusMonitor = ExecutableLocator.find("dbus-monitor", path: environment["PATH"]) else {
            throw Unavailable(description: "gdbus (GLib) and dbus-monitor (D-Bus) are needed to reach the notification service")
        }
        let information = CommandOutput.run(gdbus, ["call", "--address", address, "--timeout", "5", "--dest", service,
                                                    "--object-path", objectPath, "--method", service + ".GetServerInformation"], timeout: 6)
        guard let information, information.hasPrefix("(") else {
            throw Unavailable(description: "no notification service answers on the session bus"
                              + (information.map { ": " + $0.prefix(200) } ?? ""))
        }
        var descriptors: [Int32] = [0, 0]
        guard Self.makePipe(&descriptors) else {
            throw Unavailable(description: "no pipe for dbus-monitor: \(errnoDescription(currentErrno))")
        }
        let rule = "type='signal',interface='\(service)'"
        let monitor: ChildProcess
        do {
            monitor = try ChildProcess.launch(executable: dbusMonitor, arguments: ["--address", address, rule],
                                              inheritedDescriptors: [(descriptors[1], STDOUT_FILENO)])
        } catch {
            close(descriptors[0])
            close(descriptors[1])
            throw Unavailable(description: error.description)
        }
        close(descriptors[1])
        let ready = OnceSignal()
        let readEnd = descriptors[0]
        let reader = Thread { Self.listen(readEnd, ready: ready, events: events) }
        reader.name = "pagescript.notifications"
        reader.start()
        // The monitor listens once the bus has made it one: the bus then takes its name away
        // (`NameLost`). A notification made before would have its signals missed.
        ready.wait(seconds: 5)
        return DesktopNotifications(gdbus: gdbus, address: address, monitor: monitor)
    }

    /// Shows `notification`; its ID, or `nil` when the service refused it or did not answer.
    public func show(_ notification: DesktopNotification) async -> UInt32? {
        let arguments = ["call", "--address", address, "--timeout", "5", "--dest", Self.service, "--object-path", Self.objectPath,
                         "--method", Self.service + ".Notify", "--"] + notification.notifyArguments
        let gdbus = gdbus
        let answer = await BlockingWork.run { CommandOutput.run(gdbus, arguments, timeout: 6) }
        // `(uint32 7,)`
        guard let answer, answer.hasPrefix("(uint32 ") else { return nil }
        return UInt32(answer.dropFirst("(uint32 ".count).prefix { $0.isNumber })
    }

    /// Closes the notification `id` (the service then sends ``Event/closed(id:reason:)`` with reason 3).
    public func closeNotification(_ id: UInt32) async {
        let arguments = ["call", "--address", address, "--timeout", "5", "--dest", Self.service, "--object-path", Self.objectPath,
                         "--method", Self.service + ".CloseNotification", "--", String(id)]
        let gdbus = gdbus
        _ = await BlockingWork.run { CommandOutput.run(gdbus, arguments, timeout: 6) }
    }

    /// Stops hearing signals: `dbus-monitor` is stopped and reaped. Safe to call more than once.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        monitor.stop(grace: 0.5)
    }

    /// Reads `dbus-monitor`'s lines until it ends: a signal's header line names its member, and
    /// the indented lines after it are its arguments.
    private static func listen(_ descriptor: Int32, ready: OnceSignal, events: @Sendable (Event) -> Void) {
        defer {
            close(descriptor)
            ready.signal()
        }
        var parser = MonitorParser()
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, currentErrno == EINTR { continue }
            guard count > 0 else { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                switch parser.take(line) {
                case .listening: ready.signal()
                case let .event(event): events(event)
                case nil: break
                }
            }
        }
    }
}

extension DesktopNotifications {
    /// A pipe whose ends a started program does not inherit (but for the one it is given).
    static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return true
    }
}

/// Reads `dbus-monitor`'s default output, one line at a time.
struct MonitorParser {
    enum Outcome: Equatable {
        /// The monitor has become one (the bus took its name away).
        case listening
        case event(DesktopNotifications.Event)
    }

    private var member: String?
    private var arguments: [String] = []

    mutating func take(_ line: String) -> Outcome? {
        if line.hasPrefix("signal ") || line.hasPrefix("method ") || line.hasPrefix("error ") {
            arguments = []
            member = line.range(of: "member=").map { String(line[$0.upperBound...].prefix { !$0.isWhitespace && $0 != ";" }) }
            if member == "NameLost" { return .listening }
            if !line.contains("interface=org.freedesktop.Notifications;") { member = nil }
            return nil
        }
        guard let member, line.first?.isWhitespace == true else { return nil }
        arguments.append(line.trimmingCharacters(in: .whitespaces))
        guard arguments.count == 2, let id = Self.uint32(arguments[0]) else { return nil }
        switch member {
        case "ActionInvoked":
            guard arguments[1].hasPrefix("string \""), arguments[1].hasSuffix("\"") else { return nil }
            return .event(.actionInvoked(id: id, action: String(arguments[1].dropFirst("string \"".count).dropLast())))
        case "NotificationClosed":
            return Self.uint32(arguments[1]).map { .event(.closed(id: id, reason: $0)) }
        default:
            return nil
        }
    }

    private static func uint32(_ argument: String) -> UInt32? {
        argument.hasPrefix("uint32 ") ? UInt32(argument.dropFirst("uint32 ".count)) : nil
    }
}

/// A flag one thread raises once and another waits for, with a time limit.
private final class OnceSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var raised = false

    func signal() {
        condition.withLock {
            raised = true
            condition.broadcast()
        }
    }

    func wait(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.withLock {
            while !raised, condition.wait(until: deadline) {}
        }
    }
}
