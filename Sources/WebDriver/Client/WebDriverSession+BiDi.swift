import Foundation
import SystemSupport

extension WebDriverSession {
    /// Whether the endpoint offers this session WebDriver BiDi: it was asked for with
    /// `webSocketUrl: true` and the reply names the WebSocket.
    public var offersBiDi: Bool {
        capabilities["webSocketUrl"]?.stringValue.flatMap(URL.init(string:)) != nil
    }

    /// The session's WebDriver BiDi connection, made on first use and shared by every caller;
    /// closed by ``delete(timeout:)``.
    ///
    /// - Throws: ``BiDiError/unreachable(url:reason:)`` when the session offers none or it cannot
    ///   be reached.
    public func bidi(timeout: Double = 10) async throws(BiDiError) -> BiDiConnection {
        guard let text = capabilities["webSocketUrl"]?.stringValue, let url = URL(string: text) else {
            throw .unreachable(url: "", reason: "the session offers no WebDriver BiDi (no webSocketUrl)")
        }
        let opening = bidiConnection.withLockedValue { opened in
            if let opened { return opened }
            let task = Task { () -> Result<BiDiConnection, BiDiError> in
                do throws(BiDiError) {
                    return .success(try await BiDiConnection.connect(to: url, timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            opened = task
            return task
        }
        return try await opening.value.get()
    }

    /// Evaluates `expression` in the top document of the session's window as BiDi's
    /// `script.evaluate`, which, unlike the driver's commands, does not wait for a load under way.
    ///
    /// - Returns: The expression's value as classic WebDriver would give it, or why there is none
    ///   (``BiDiError/timedOut(method:seconds:)`` for a page busy in a script of its own, an
    ///   exception as ``BiDiError/commandFailed(method:error:message:)``); `nil` when the session
    ///   offers no BiDi or its window is not known yet.
    public func evaluateInWindowThroughBiDi(_ expression: String, timeout: Double) async -> Result<JSONValue, BiDiError>? {
        guard offersBiDi, let window = knownWindowHandle else { return nil }
        do throws(BiDiError) {
            let connection = try await bidi(timeout: timeout)
            let reply = try await connection.send("script.evaluate", parameters: [
                "expression": .string(expression), "target": ["context": .string(window)], "awaitPromise": false, "resultOwnership": "none",
            ], timeout: timeout)
            guard reply["type"]?.stringValue != "exception" else {
                let text = reply["exceptionDetails"]?["text"]?.stringValue ?? "the expression threw"
                return .failure(.commandFailed(method: "script.evaluate", error: "javascript error", message: text))
            }
            return .success(BiDiScriptCalls.jsonValue(ofRemote: reply["result"] ?? .null))
        } catch {
            return .failure(error)
        }
    }

    /// Subscribes to the navigations of the session's window (``BiDiNavigationRecord``); without
    /// a connection or a subscription within `timeout`, navigations go unrecorded, as on an
    /// endpoint that offers no BiDi.
    func followNavigationsThroughBiDi(timeout: Double) async {
        let record = await followWindow(events: BiDiNavigationRecord.events, timeout: timeout) { window, _ in
            BiDiNavigationRecord(context: window)
        } receive: { record, method, parameters in
            record.received(method, parameters)
        }
        guard let record else { return }
        bidiNavigation.withLockedValue { $0 = record }
    }

    /// Subscribes to `events` of the session's window on its BiDi connection, handing each to
    /// `receive` with the follower `make` builds for the window's context; `nil` without a
    /// connection or a subscription within `timeout`.
    private func followWindow<Follower: Sendable>(
        events: [String], timeout: Double, make: (_ window: String, _ connection: BiDiConnection) -> Follower,
        receive: @escaping @Sendable (Follower, String, JSONValue) -> Void
    ) async -> Follower? {
        guard let window = try? await windowHandle(timeout: timeout), let connection = try? await bidi(timeout: timeout) else { return nil }
        let follower = make(window, connection)
        connection.onEvent { receive(follower, $0, $1) }
        let subscription: JSONValue = ["events": .array(events.map { .string($0) }), "contexts": [.string(window)]]
        guard (try? await connection.send("session.subscribe", parameters: subscription, timeout: timeout)) != nil else { return nil }
        return follower
    }

    /// Execute Script as `script.callFunction` on the session's BiDi connection
    /// (``BiDiScriptCalls``): the same function, arguments, value and errors as the driver's
    /// `POST /execute/sync`, one hop fewer, within the session's script timeout.
    ///
    /// - Returns: The script's value; `nil` when it cannot go this way (the session offers no
    ///   BiDi, a dialog is open, which only the driver's user prompt handling answers, a
    ///   navigation is under way, which the driver waits for, or the BiDi connection has ended):
    ///   send it through ``executeScript(serializedScript:arguments:timeout:)`` then.
    /// - Throws: The driver's errors; ``WebDriverError/unknownProtocolError(code:message:)`` when
    ///   the connection ended while the call ran (whether the script ran is the driver's to say).
    public func executeScriptThroughBiDi(
        serializedScript: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue? {
        guard offersBiDi, let calls = await scriptCalls(timeout: timeout ?? client.defaultTimeout), !calls.leftToTheDriver else {
            return nil
        }
        let scriptTimeout = timeouts.withLockedValue { $0.script }.map { Double($0) / 1000 }
        return try await calls.call(serializedBody: serializedScript, arguments: arguments, scriptTimeout: scriptTimeout,
                                    timeout: timeout ?? client.defaultTimeout)
    }

    /// The window's BiDi calls, set up on first use (its dialogs followed); `nil` when that
    /// failed, and then for the rest of the session.
    private func scriptCalls(timeout: Double) async -> BiDiScriptCalls? {
        let setUp = bidiScriptCalls.withLockedValue { started in
            if let started { return started }
            let task = Task { () -> BiDiScriptCalls? in
                await self.followWindow(events: BiDiScriptCalls.events, timeout: timeout) { window, connection in
                    BiDiScriptCalls(context: window, connection: connection)
                } receive: { calls, method, parameters in
                    calls.received(method, parameters)
                }
            }
            started = task
            return task
        }
        return await setUp.value
    }
}
