import DevTools
import Foundation
import WebDriver

extension WebDriverSession {
    /// Closes the session's Chromium through the browser's own DevTools, for a driver that no
    /// longer answers for it: chromedriver waits for good on a page whose script never returns
    /// (`while (true)` before the load ends), and queues the session's deletion behind that wait,
    /// so the browser would outlive the batch. Once the browser is closed, the driver's wait
    /// fails and the session can be deleted.
    ///
    /// Only a browser on this machine (the driver's and the browser's addresses both loopback, as
    /// for ``PageSession``'s direct DevTools), and only the session's own: the browser at that
    /// address must report the version the session was created with. Returns whether a browser
    /// was told to close.
    ///
    /// ```swift
    /// // The driver did not answer a deletion in time:
    /// if await session.closeStuckChromium() { await session.delete(timeout: 10) }
    /// ```
    public func closeStuckChromium(timeout: Double = 5) async -> Bool {
        guard case let .http(host, port)? = DirectDevTools.localEndpoint(of: self),
              let expected = capabilities["browserVersion"]?.stringValue, !expected.isEmpty,
              let version = try? await DevToolsDiscovery.version(host: host, port: port, timeout: timeout),
              version.browser.hasSuffix("/" + expected),
              let connection = try? await DevToolsConnection.connect(to: .webSocket(version.webSocketDebuggerURL), defaultTimeout: timeout)
        else { return false }
        var closed = true
        do throws(DevToolsError) {
            _ = try await connection.send("Browser.close", timeout: timeout)
        } catch {
            // The browser may close the connection before it answers.
            if case .connectionClosed = error {} else { closed = false }
        }
        await connection.close()
        return closed
    }
}
