import DevTools
import Engines
import Foundation
import TestSupport
import Testing

/// A headless Chromium started for one test with a DevTools port of its own, and a connection
/// to it. Everything it started is stopped afterwards, and the test checks that no process
/// carrying its environment marker is left.
struct BrowserFixture {
    let chromium: ChromiumProcess
    let connection: DevToolsConnection

    /// Runs `body` with a fresh browser and connection, then stops both and checks that nothing
    /// the browser started is still running.
    static func run<T>(_ body: (BrowserFixture) async throws -> T) async throws -> T {
        let marker = ProcessProbe.newMarker()
        var environment = ProcessInfo.processInfo.environment
        environment[marker.name] = marker.value
        let chromium = try ChromiumProcess.launch(environment: environment)
        let result: Result<T, any Error>
        do {
            let connection = try await DevToolsConnection.connect(to: chromium.endpoint)
            do {
                result = .success(try await body(BrowserFixture(chromium: chromium, connection: connection)))
            } catch {
                result = .failure(error)
            }
            await connection.close()
        } catch {
            result = .failure(error)
        }
        chromium.stop()
        // Chromium's crash handler double-forks out of the browser's process tree and ends by
        // itself once the browser is gone; on a loaded machine that can take a moment.
        var left = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        for _ in 0..<100 where !left.isEmpty && left.allSatisfy({ $0.contains("chrome_crashpad_handler") }) {
            try? await Task.sleep(nanoseconds: 50_000_000)
            left = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        }
        #expect(left == [])
        #expect(!FileManager.default.fileExists(atPath: chromium.profileFolder))
        return try result.get()
    }

    /// A session on the tab the browser opened at start.
    func firstPage() async throws -> DevToolsSession {
        let page = try #require(try await connection.browser.targets().first { $0.type == "page" })
        return try await connection.browser.attach(toTarget: page.targetID)
    }
}

/// Polls `condition` until it holds: for page state that no event announces. A condition that
/// throws counts as not holding yet (an evaluation answered "target navigated" while the page
/// it waits for commits); when time runs out, its last error is reported with `what`.
func eventually(
    within seconds: Double = 20, _ what: String, _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
    let lastError = ErrorBox()
    do {
        try await within(seconds, what) {
            while true {
                do {
                    if try await condition() { return }
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    lastError.error = error
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }
    } catch {
        if let last = lastError.error { Issue.record("\(what): the condition last failed with \(last)") }
        throw error
    }
}

/// The last error a polled condition threw.
private final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension ChromiumProcess {
    /// Where to connect: the browser target's WebSocket.
    var endpoint: DevToolsEndpoint { .webSocket(webSocketURL) }
}
