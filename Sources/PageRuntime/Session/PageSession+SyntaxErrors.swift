import WebDriver

extension PageSession {
    /// The result for a script whose run did not compile: a `SyntaxError` at its position in the
    /// user's text, from the engine when it gave one (DevTools), else found with compile-only
    /// probes (``SyntaxErrorLocator``). `nil` when the code compiles on its own, so that the
    /// failure lay elsewhere.
    func syntaxErrorResult(_ script: PreparedScript, body: ScriptBody, engineMessage: String,
                           reportedAt reported: (line: Int, column: Int)?) async throws(InjectionError) -> ScriptResult? {
        let position: (line: Int, column: Int?)?
        if let reported {
            position = PositionMapping(prepared: script, placement: body.placements[0]).userPosition(line: reported.line, column: reported.column)
        } else {
            // The probes go through the driver's current window: a page in a background tab
            // (reached through DevTools, which reports positions itself) has no other way.
            guard route == nil else { return nil }
            let transport = self.transport
            let location = try await SyntaxErrorLocator.locate(
                code: script.code, header: ScriptBody.header(for: script), tokens: script.tokenRanges(), engineMessage: engineMessage
            ) { probe throws(InjectionError) in
                do throws(WebDriverError) {
                    _ = try await transport.run(probe, timeout: 10)
                    return .compiled
                } catch {
                    if case let .protocolError(code: .javascriptError, message, _) = error {
                        return .failed(SyntaxErrorLocator.engineMessage(message))
                    }
                    throw .webDriver(error)
                }
            }
            guard let location else { return nil }
            let offset: Int
            switch location {
            case let .token(at): offset = at
            case .end: offset = script.code.utf16.count
            }
            let inCode = JavaScriptLines.position(ofOffset: offset, in: script.code)
            position = script.originalPosition(line: inCode.line, column: inCode.column)
        }
        let message = SyntaxErrorLocator.usersMessage(engineMessage, script: script, line: position?.line, column: position?.column)
        let error = ScriptError(name: "SyntaxError", message: message, line: position?.line, column: position?.column)
        return ScriptResult(context: try await context(), value: nil, console: [], error: error, dialogs: takePageDialogs())
    }
}
