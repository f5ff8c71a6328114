import SystemSupport

/// What `this` is for ``DevToolsSession/callFunction(_:arguments:on:awaitPromise:returnByValue:userGesture:timeout:)``.
public enum FunctionReceiver: Sendable, Equatable {
    /// An object in the page, by its ``RemoteObject/objectID``: `this` is that object, and the
    /// function runs in the object's context.
    case object(String)
    /// The global object of an execution context (from `Runtime.executionContextCreated` or
    /// `Page.createIsolatedWorld`).
    case context(Int)
}

/// One argument for `Runtime.callFunctionOn`.
public enum CallArgument: Sendable, Equatable {
    /// A JSON value, passed by value.
    case value(JSONValue)
    /// An object in the page, by its ``RemoteObject/objectID``.
    case object(String)

    var protocolValue: JSONValue {
        switch self {
        case let .value(value): ["value": value]
        case let .object(id): ["objectId": .string(id)]
        }
    }
}

/// The `Runtime` domain: running JavaScript, bindings, and resuming targets that wait.
extension DevToolsSession {
    /// `Runtime.enable`: report execution contexts (`Runtime.executionContextCreated`), console
    /// calls (`Runtime.consoleAPICalled`) and uncaught exceptions for this target.
    public func enableRuntime() async throws(DevToolsError) {
        _ = try await send(.enableRuntime)
    }

    /// `Runtime.runIfWaitingForDebugger`: lets a target that auto-attach paused start running.
    public func runIfWaitingForDebugger() async throws(DevToolsError) {
        _ = try await send(.runIfWaitingForDebugger)
    }

    /// `Runtime.evaluate`: runs `expression` as a script in the page (global scope, like the
    /// console) and returns its completion value.
    ///
    /// ```swift
    /// let title = try await page.evaluate("document.title").value?.stringValue
    /// ```
    ///
    /// - Parameters:
    ///   - expression: The script.
    ///   - contextID: The execution context; the page's main world when `nil`.
    ///   - awaitPromise: Wait for a returned promise and report what it settles to.
    ///   - returnByValue: Return the value as JSON rather than as a handle.
    ///   - userGesture: Run as if the user had clicked (lets `window.open` open a tab).
    ///   - timeout: Seconds to wait for the reply.
    /// - Throws: ``DevToolsError/exceptionThrown(method:_:)`` when the script throws or its
    ///   promise rejects; the connection's errors otherwise.
    public func evaluate(
        _ expression: String, contextID: Int? = nil, awaitPromise: Bool = true, returnByValue: Bool = true,
        userGesture: Bool = false, timeout: Double? = nil
    ) async throws(DevToolsError) -> RemoteObject {
        var parameters: [(key: String, value: JSONValue)] = [
            ("expression", .string(expression)), ("awaitPromise", .bool(awaitPromise)), ("returnByValue", .bool(returnByValue)),
        ]
        if let contextID { parameters.append(("contextId", .integer(Int64(contextID)))) }
        if userGesture { parameters.append(("userGesture", true)) }
        let result = try await send("Runtime.evaluate", .object(parameters), timeout: timeout)
        return try Self.remoteObject(from: result, method: "Runtime.evaluate")
    }

    /// `Runtime.callFunctionOn`: calls `declaration` (a function's source, e.g.
    /// `function (a) { return a + 1 }`) with `arguments`, `this` being `receiver`.
    ///
    /// ```swift
    /// let global = try await page.evaluate("globalThis", returnByValue: false)
    /// let sum = try await page.callFunction("(a, b) => a + b", arguments: [.value(1), .value(2)],
    ///                                       on: .object(global.objectID!))
    /// ```
    ///
    /// - Throws: ``DevToolsError/exceptionThrown(method:_:)`` when the function throws or its
    ///   promise rejects; the connection's errors otherwise.
    public func callFunction(
        _ declaration: String, arguments: [CallArgument] = [], on receiver: FunctionReceiver,
        awaitPromise: Bool = true, returnByValue: Bool = true, userGesture: Bool = false, timeout: Double? = nil
    ) async throws(DevToolsError) -> RemoteObject {
        var parameters: [(key: String, value: JSONValue)] = [
            ("functionDeclaration", .string(declaration)),
            ("arguments", .array(arguments.map(\.protocolValue))),
            ("awaitPromise", .bool(awaitPromise)), ("returnByValue", .bool(returnByValue)),
        ]
        switch receiver {
        case let .object(id): parameters.append(("objectId", .string(id)))
        case let .context(id): parameters.append(("executionContextId", .integer(Int64(id))))
        }
        if userGesture { parameters.append(("userGesture", true)) }
        let result = try await send("Runtime.callFunctionOn", .object(parameters), timeout: timeout)
        return try Self.remoteObject(from: result, method: "Runtime.callFunctionOn")
    }

    /// `Runtime.addBinding`: a function `name(payload)` in the page that sends the string
    /// `payload` to PageScript as a `Runtime.bindingCalled` event (``BindingCall``). The events
    /// arrive only once `Runtime.enable` (``enableRuntime()``) has been sent in the session.
    ///
    /// With `executionContextName`, the function exists only in execution contexts of that name
    /// (isolated worlds made with `worldName`), so the page's own scripts cannot call it; without
    /// it, every script in the page can. The binding stays for later documents of the target.
    public func addBinding(_ name: String, executionContextName: String? = nil) async throws(DevToolsError) {
        _ = try await send(.addBinding(name, executionContextName: executionContextName))
    }

    /// `Runtime.removeBinding`.
    public func removeBinding(_ name: String) async throws(DevToolsError) {
        _ = try await send("Runtime.removeBinding", ["name": .string(name)])
    }

    static func remoteObject(from result: JSONValue, method: String) throws(DevToolsError) -> RemoteObject {
        if let details = result["exceptionDetails"] {
            throw .exceptionThrown(method: method, ExceptionDetails(details))
        }
        guard let object = result["result"] else {
            throw .malformedReply(method: method, reason: "no result")
        }
        return RemoteObject(object)
    }
}
