import Foundation
import SystemSupport

/// Safari's start: `safaridriver` on a free port, whose sessions ask for `browserName: safari`.
/// Safari allows one automation session at a time and always opens its own window.
enum SafariLauncher {
    /// safaridriver's arguments.
    static func driverArguments(port: UInt16) -> [String] {
        ["--port", "\(port)"]
    }

    /// Starts safaridriver and waits until it is ready.
    static func launch(programs: [String: String], timeout: Double) async throws(EngineError) -> LocalLaunch {
        let driver = try await LocalDriver.start(
            engine: .safari, executable: programs["safaridriver"] ?? "safaridriver", arguments: { driverArguments(port: $0) },
            environment: ProcessInfo.processInfo.environment, timeout: timeout)
        PhaseTimeline.current?.end("driver")
        return LocalLaunch(driver: driver, display: nil, capabilities: ["browserName": "safari"], scratchFolders: [])
    }
}
