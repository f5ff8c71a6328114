import Engines
import Foundation
import SystemSupport
import Testing

/// A desktop of a test's own for notifications: a private Xvfb, a private D-Bus session bus, a
/// real dunst on both, and `dbus-monitor` watching the `Notify` calls made on the bus; stopped by
/// the test.
struct NotificationDesktop {
    let display: XvfbDisplay
    /// The bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    let address: String
    /// What `dbus-monitor` printed of the `Notify` calls.
    let calls: LineReader
    private let bus: LineReader
    private let dunst: LineReader

    /// Starts everything and waits until the monitor listens.
    init() throws {
        display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        let started = (try? LineReader("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], environment: [:]))
        guard let bus = started, bus.waitFor(seconds: 10, { $0.hasPrefix("unix:") }), let address = bus.lines.first else {
            started?.stop()
            display.stop()
            throw DesktopFailure(description: "the private D-Bus session bus did not start")
        }
        self.bus = bus
        self.address = address
        dunst = try LineReader("/usr/bin/dunst", [], environment: ["DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": address])
        calls = try LineReader("/usr/bin/dbus-monitor", ["--address", address, "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
                               environment: [:])
        #expect(calls.waitFor(seconds: 10) { $0.contains("member=NameLost") }, "the monitor did not start listening")
    }

    /// What a program on this desktop is given: the display and the bus.
    var environment: [String: String] {
        ["DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": address]
    }

    /// Clicks the newest notification's default action, as a person would (`dunstctl action 0`).
    func clickNewest() throws -> LineReader {
        try LineReader("/usr/bin/dunstctl", ["action", "0"], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    func stop() {
        calls.stop()
        dunst.stop()
        bus.stop()
        display.stop()
    }

    private struct DesktopFailure: Error, CustomStringConvertible {
        let description: String
    }
}

/// A helper program of a test (a bus, a notification daemon, a monitor), with its standard
/// output and error read line by line; stopped by the test.
final class LineReader: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var output = ""

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.lock.withLock { self?.output += text }
        }
        try process.run()
    }

    var lines: [String] { lock.withLock { output.split(separator: "\n").map(String.init) } }

    func waitFor(seconds: Double, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.contains(where: condition) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Waits for the program to end by itself.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after a moment: a program started from the test process may
    /// inherit SIGTERM ignored.
    func stop() {
        if process.isRunning { process.terminate() }
        for _ in 0..<20 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
