import Foundation
import NIOConcurrencyHelpers
import SystemSupport

/// A MiniBrowser that PageScript starts itself, in automation mode, for WebKitWebDriver to
/// attach to (`--target`) through an ``InspectorRelay``.
///
/// Left to itself, WebKitWebDriver starts MiniBrowser with `WEBKIT_INSPECTOR_SERVER` set to a
/// port of its choosing and connects to it directly, and that connection stalls for the delayed
/// acknowledgement after every navigation (see ``InspectorRelay``). PageScript starts the browser
/// the same way (same program, `--automation`, the same environment) on a port of its own, puts
/// the relay in front of it, and gives the driver the relay's address: navigation then takes as
/// long as the page's load. Stopping the browser stops its web and network processes (its
/// process group).
public final class WebKitBrowser: Sendable {
    /// The MiniBrowser process (leader of its process group).
    public let process: ChildProcess
    /// The relay WebKitWebDriver connects to.
    public let relay: InspectorRelay

    private init(process: ChildProcess, relay: InspectorRelay) {
        self.process = process
        self.relay = relay
    }

    /// The driver argument that points WebKitWebDriver at this browser.
    public var driverArgument: String { "--target=127.0.0.1:\(relay.port)" }

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

    /// Starts the MiniBrowser `driverPath` would start, with its relay (``start(executable:arguments:environment:outputPath:timeout:)``,
    /// with ``BrowserEngine/webKitArguments``); `nil` when the driver names none, and then the
    /// driver starts its browser itself.
    public static func startIfAvailable(
        forDriver driverPath: String, environment: [String: String], outputPath: String?, timeout: Double
    ) async throws(EngineError) -> WebKitBrowser? {
        guard let executable = miniBrowser(startedBy: driverPath) else { return nil }
        return try await start(executable: executable, arguments: BrowserEngine.webKitArguments, environment: environment,
                               outputPath: outputPath, timeout: timeout)
    }

    /// Starts MiniBrowser in automation mode and the relay in front of its automation server.
    ///
    /// - Parameters:
    ///   - executable: The MiniBrowser program (``miniBrowser(startedBy:)``).
    ///   - arguments: Its arguments (``BrowserEngine/webKitArguments``).
    ///   - environment: Its environment (`DISPLAY` set); `WEBKIT_INSPECTOR_SERVER` is added.
    ///   - outputPath: Where its output goes (the driver's log).
    ///   - timeout: How long the browser may take to listen once the driver connects, in seconds.
    public static func start(
        executable: String, arguments: [String], environment: [String: String], outputPath: String?, timeout: Double
    ) async throws(EngineError) -> WebKitBrowser {
        let port: UInt16
        do {
            // Not from the ephemeral range: a connection made meanwhile could take such a port
            // before the browser binds it, and the relay would then reach whatever holds it.
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
        do {
            let relay = try await InspectorRelay.start(targetPort: port, connectTimeout: timeout) { process.isRunning }
            return WebKitBrowser(process: process, relay: relay)
        } catch {
            process.stop()
            throw error
        }
    }

    /// Stops the relay and the browser with its helper processes.
    ///
    /// - Parameter grace: How long the browser may take to exit after `SIGTERM`, in seconds; an
    ///   automation browser keeps nothing, so by default it is not waited for.
    public func stop(grace: Double = 0) async {
        await relay.stop()
        let process = process
        await BlockingWork.run { process.stop(grace: grace) }
    }
}
