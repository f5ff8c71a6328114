import Foundation
import NIOConcurrencyHelpers
import SystemSupport
import WebDriver

/// A MiniBrowser that PageScript starts itself, in automation mode, for WebKitWebDriver to
/// attach to (`--target`).
///
/// Left to itself, WebKitWebDriver starts MiniBrowser with `WEBKIT_INSPECTOR_SERVER` set to a
/// port of its choosing and connects to it directly; neither side sets `TCP_NODELAY`, and after a
/// navigation the browser answers with two writes in a row, so the answer waits for the
/// driver's delayed acknowledgement (40 ms on Linux) every time. PageScript starts the browser
/// the same way (same program, `--automation`, the same environment) on a port of its own, with
/// an ``InspectorRelay`` in front of it that acknowledges at once and writes with
/// `TCP_NODELAY` (``Link/relayed(_:)``): navigation then takes as long as the page's load. The
/// relay also carries PageScript's own commands to the driver's automation session
/// (``WebKitAutomationChannel``): a session's Execute Script goes straight to the browser,
/// without the driver's HTTP server and its extra round trips (``sessionStarted(_:driver:)``).
/// Where the system lets a parent reach its children's sockets (``SystemSupport/ProcessSockets``),
/// the driver can instead connect to the browser directly with Nagle's algorithm turned off on
/// both ends from outside (``Link/direct(port:)``, on request): one hop less for the driver's
/// commands, but scripts then go through the driver. Stopping the browser
/// stops its web and network processes (its process group).
public final class WebKitBrowser: Sendable {
    /// How WebKitWebDriver reaches the browser.
    public enum Link: Sendable {
        /// Straight to the browser's automation server on this port, with `TCP_NODELAY` set on
        /// both ends by PageScript.
        case direct(port: UInt16)
        /// Through a relay that sets it on its own two ends and carries PageScript's commands
        /// (its ``InspectorRelay/automation``).
        case relayed(InspectorRelay)
    }

    /// The MiniBrowser process (leader of its process group).
    public let process: ChildProcess
    /// How the driver reaches the browser.
    public let link: Link
    /// How long the browser may take to start its automation server, in seconds.
    private let startupTimeout: Double

    private init(process: ChildProcess, link: Link, startupTimeout: Double) {
        self.process = process
        self.link = link
        self.startupTimeout = startupTimeout
    }

    /// The driver argument that points WebKitWebDriver at this browser.
    public var driverArgument: String {
        switch link {
        case let .direct(port): "--target=127.0.0.1:\(port)"
        case let .relayed(relay): "--target=127.0.0.1:\(relay.port)"
        }
    }

    /// Readies the browser for the driver's new session: with a direct link, waits until the
    /// browser's automation server listens (the driver does not retry a refused connection) and
    /// sets `TCP_NODELAY` on it and on the driver's sockets (its HTTP server and the connections
    /// PageScript has open to it). Nothing to do through a relay.
    ///
    /// - Throws: ``EngineError/failedToStart(engine:reason:)`` when the browser exits or does not
    ///   listen within its startup timeout.
    public func prepareForSession(driver: ChildProcess) async throws(EngineError) {
        guard case let .direct(port) = link else { return }
        let deadline = Date().addingTimeInterval(startupTimeout)
        while !ProcessSockets.isListening(onLoopbackPort: port) {
            guard process.isRunning else {
                throw .failedToStart(engine: .webkit, reason: "MiniBrowser exited before its automation server listened")
            }
            guard Date() < deadline else {
                throw .failedToStart(engine: .webkit, reason: "MiniBrowser's automation server did not listen within \(Int(startupTimeout.rounded())) s")
            }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        tuneSockets(driver: driver)
    }

    /// Call after each new session: through the relay, hands `session` PageScript's own way to
    /// the browser for its scripts (``WebDriverSession/executesScriptsDirectly``); with a direct
    /// link, sets `TCP_NODELAY` on the sockets the driver's new session opened (its connection to
    /// the browser, and the browser's end again).
    public func sessionStarted(_ session: WebDriverSession, driver: ChildProcess) {
        switch link {
        case .direct:
            tuneSockets(driver: driver)
        case let .relayed(relay):
            if let automation = relay.automation { session.executeScripts(through: automation) }
        }
    }

    private func tuneSockets(driver: ChildProcess) {
        // A socket that could not be reached only costs the delays the option saves.
        _ = try? ProcessSockets.setNoDelay(inProcess: process.processID)
        _ = try? ProcessSockets.setNoDelay(inProcess: driver.processID)
    }

    /// The MiniBrowser that `driverPath` would start, found once per driver.
    ///
    /// - Returns: `nil` when the driver names no MiniBrowser that exists; the driver then starts
    ///   its browser itself, as before.
    public static func miniBrowser(startedBy driverPath: String) -> String? {
        knownBrowsers.withLockedValue { known in
            if let found = known[driverPath] { return found }
            let found = EngineInventory.compiledInMiniBrowser(of: driverPath)
            known[driverPath] = found
            return found
        }
    }

    private static let knownBrowsers = NIOLockedValueBox<[String: String?]>([:])

    /// Starts the MiniBrowser `driverPath` would start, with its relay (``start(executable:arguments:environment:outputPath:timeout:allowDirectLink:)``,
    /// with `arguments`, by default ``WebKitLauncher/browserArguments``); `nil` when the driver
    /// names none, and then the driver starts its browser itself.
    public static func startIfAvailable(
        forDriver driverPath: String, environment: [String: String], outputPath: String?, timeout: Double,
        allowDirectLink: Bool = false, arguments: [String] = WebKitLauncher.browserArguments
    ) async throws(EngineError) -> WebKitBrowser? {
        guard let executable = miniBrowser(startedBy: driverPath) else { return nil }
        return try await start(executable: executable, arguments: arguments, environment: environment,
                               outputPath: outputPath, timeout: timeout, allowDirectLink: allowDirectLink)
    }

    /// Starts MiniBrowser in automation mode behind a relay that carries PageScript's commands
    /// too, or linked directly where asked and where PageScript can set the socket option in the
    /// browser and the driver.
    ///
    /// - Parameters:
    ///   - executable: The MiniBrowser program (``miniBrowser(startedBy:)``).
    ///   - arguments: Its arguments (``WebKitLauncher/browserArguments``).
    ///   - environment: Its environment (`DISPLAY` set); `WEBKIT_INSPECTOR_SERVER` is added.
    ///   - outputPath: Where its output goes (the driver's log).
    ///   - timeout: How long the browser may take to listen once the driver connects, in seconds.
    ///   - allowDirectLink: `true` to link the driver straight to the browser where the system
    ///     allows it, without PageScript's own way to the automation session.
    public static func start(
        executable: String, arguments: [String], environment: [String: String], outputPath: String?, timeout: Double,
        allowDirectLink: Bool = false
    ) async throws(EngineError) -> WebKitBrowser {
        let port: UInt16
        do {
            // Not from the ephemeral range: a connection made meanwhile could take such a port
            // before the browser binds it, and the driver would then reach whatever holds it.
            port = try FreePort.belowEphemeralRange()
        } catch {
            throw .failedToStart(engine: .webkit, reason: "no free port for the browser's automation server: \(error)")
        }
        var environment = environment
        environment["WEBKIT_INSPECTOR_SERVER"] = "127.0.0.1:\(port)"
        let process: ChildProcess
        do {
            process = try ChildProcess.launch(executable: executable, arguments: arguments, environment: environment, outputPath: outputPath)
        } catch {
            throw .failedToStart(engine: .webkit, reason: error.description)
        }
        if allowDirectLink, ProcessSockets.canReach(process.processID) {
            return WebKitBrowser(process: process, link: .direct(port: port), startupTimeout: timeout)
        }
        do {
            let relay = try await InspectorRelay.start(targetPort: port, connectTimeout: timeout, targetIsAlive: { process.isRunning },
                                                       automation: WebKitAutomationChannel())
            return WebKitBrowser(process: process, link: .relayed(relay), startupTimeout: timeout)
        } catch {
            process.stop()
            throw error
        }
    }

    /// Stops the relay, if any, and the browser with its helper processes.
    ///
    /// - Parameter grace: How long the browser may take to exit after `SIGTERM`, in seconds; an
    ///   automation browser keeps nothing, so by default it is not waited for.
    public func stop(grace: Double = 0) async {
        if case let .relayed(relay) = link { await relay.stop() }
        let process = process
        await BlockingWork.run { process.stop(grace: grace) }
    }
}
