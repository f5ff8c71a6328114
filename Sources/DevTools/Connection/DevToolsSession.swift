import SystemSupport

/// The browser, or one target attached to it, on a ``DevToolsConnection``: a flat session.
///
/// Commands sent through a session carry its `sessionId`; the browser's own session
/// (``DevToolsConnection/browser``) has none. The domain helpers (`Target`, `Runtime`, `Page`)
/// are methods of this type.
///
/// ```swift
/// let page = try await connection.browser.attach(toTarget: targetID)
/// let value = try await page.evaluate("location.href")
/// ```
public struct DevToolsSession: Sendable, Equatable {
    /// The connection the session's messages travel on.
    public let connection: DevToolsConnection
    /// The flat session's ID; `nil` for the browser itself.
    public let id: String?

    /// Creates a handle for session `id` on `connection`; nothing is sent.
    public init(connection: DevToolsConnection, id: String?) {
        self.connection = connection
        self.id = id
    }

    public static func == (lhs: DevToolsSession, rhs: DevToolsSession) -> Bool {
        lhs.connection === rhs.connection && lhs.id == rhs.id
    }

    /// Sends `method` with `parameters` in this session and returns its `result`.
    ///
    /// - Throws: See ``DevToolsConnection/send(_:_:sessionID:timeout:)``.
    public func send(_ method: String, _ parameters: JSONValue = .object([]), timeout: Double? = nil) async throws(DevToolsError) -> JSONValue {
        try await connection.send(method, parameters, sessionID: id, timeout: timeout)
    }

    /// Sends `method` with parameters that are already JSON text (see
    /// ``DevToolsConnection/send(_:serializedParameters:sessionID:timeout:)``).
    public func send(_ method: String, serializedParameters: String, timeout: Double? = nil) async throws(DevToolsError) -> JSONValue {
        try await connection.send(method, serializedParameters: serializedParameters, sessionID: id, timeout: timeout)
    }

    /// Sends `command` in this session and returns its `result`.
    public func send(_ command: DevToolsCommand, timeout: Double? = nil) async throws(DevToolsError) -> JSONValue {
        try await connection.send(command.method, command.parameters, sessionID: id, timeout: timeout)
    }

    /// Sends `commands` in this session without waiting between them, then returns every reply
    /// in order (see ``DevToolsConnection/send(pipelined:sessionID:timeout:)``).
    public func send(pipelined commands: [DevToolsCommand], timeout: Double? = nil) async -> [Result<JSONValue, DevToolsError>] {
        await connection.send(pipelined: commands, sessionID: id, timeout: timeout)
    }

    /// This session's events (for the browser session: the events without a `sessionId`).
    ///
    /// The stream ends when the session detaches or the connection ends.
    /// - Parameter methods: The event names to receive; empty for all.
    public func events(_ methods: Set<String> = []) -> AsyncStream<DevToolsEvent> {
        connection.events(methods, scope: id.map { .session($0) } ?? .browser)
    }
}
