import SystemSupport
import WebDriver

/// A way to a tab's DevTools that does not go through the WebDriver session's current window:
/// a page in a tab the session is not on (`browse` collects the runs of background tabs on a
/// DevTools connection of its own).
///
/// A ``PageSession`` made with a route sends every call into the page as DevTools'
/// `Runtime.evaluate` through it, and reads the page's address there too; nothing about that page
/// goes through WebDriver.
///
/// ```swift
/// let route = DevToolsRoute { method, parameters, timeout throws(WebDriverError) in
///     try await send(method, parameters, timeout)
/// }
/// let background = PageSession(session: page.session, scriptTimeout: 30, route: route)
/// ```
public struct DevToolsRoute: Sendable {
    /// Sends one DevTools command (method, parameters, seconds to wait) to the tab and returns its
    /// result. A tab or connection that is gone is ``WebDriver/WebDriverError/unreachable(endpoint:reason:)``;
    /// a command the browser refused, ``WebDriver/WebDriverError/unknownProtocolError(code:message:)``.
    public let send: @Sendable (_ method: String, _ parameters: JSONValue, _ timeout: Double) async throws(WebDriverError) -> JSONValue

    public init(send: @escaping @Sendable (_ method: String, _ parameters: JSONValue, _ timeout: Double) async throws(WebDriverError) -> JSONValue) {
        self.send = send
    }
}
