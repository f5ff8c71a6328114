import Engines
import Foundation
import PageRuntime
import SystemSupport
import Testing
import TestSupport
import WebDriver

/// Execute Script as WebDriver BiDi's `script.callFunction` on a real Firefox: the same values as
/// geckodriver's classic Execute Script, and classic WebDriver's answers where BiDi alone would
/// differ (a dialog the script opens, a dialog left open, a document replaced under the call, a
/// connection that ended).
@Suite(.serialized)
struct BiDiScriptCallTests {
    static func site() throws -> LoopbackServer {
        try LoopbackServer(pages: [
            "/": "<!doctype html><html><head><title>Calls</title></head><body><p>here</p></body></html>",
            "/other": "<!doctype html><html><head><title>Other</title></head><body></body></html>",
        ])
    }

    /// A Firefox session on `/` of `server`, deleted and stopped after `body`.
    static func onFirefox(_ server: LoopbackServer, _ body: (WebDriverSession) async throws -> Void) async throws {
        let engine = try await BrowserEngine.start(.firefox)
        do {
            // Dialogs left open, as PageScript's sessions leave them for its own answers.
            let session = try await engine.newSession(timeout: 60, scriptTimeout: 10, unhandledPromptBehavior: "ignore")
            do {
                try await session.navigate(to: server.url("/"))
                try await body(session)
            } catch {
                await session.delete()
                throw error
            }
            await session.delete()
        } catch {
            await engine.stop()
            throw error
        }
        await engine.stop()
    }

    static func serialized(_ script: String) -> String { JSONValue.string(script).serialized }

    @Test func valuesAreTheDriversAndDialogsAndUnloadsGetItsAnswers() async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await Self.onFirefox(server) { session in
            #expect(session.offersBiDi)
            let script = "return [arguments[0], 'a', null, {b: true, c: [2.5, -0]}, undefined, NaN, document.title]"
            let arguments: [JSONValue] = [.string("{\"sealed\":1}")]
            let classic = try await session.executeScript(serializedScript: Self.serialized(script), arguments: arguments)
            let bidi = try await session.executeScriptThroughBiDi(serializedScript: Self.serialized(script), arguments: arguments)
            #expect(bidi == classic, "BiDi \(String(describing: bidi)) vs classic \(classic)")
            #expect(bidi?.arrayValue?.last == .string("Calls"))

            // A call whose script opens a dialog is answered null at once, as geckodriver does;
            // while the dialog is open, calls are left to the driver and its prompt handling.
            let opening = try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("alert('stop'); return 2"))
            #expect(opening == .null)
            #expect(try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("return 3")) == nil)
            _ = try await session.command(.POST, "/alert/dismiss", body: [:], name: "dismiss alert")
            var answered: JSONValue?
            for _ in 0..<50 where answered == nil {
                answered = try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("return 4"))
                if answered == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(answered == .integer(4))

            // A call whose document is replaced fails as geckodriver's does, instead of waiting for good.
            await #expect {
                _ = try await session.executeScriptThroughBiDi(
                    serializedScript: Self.serialized("location.href = '/other'; return new Promise(function () {})"), timeout: 20)
            } throws: { error in
                guard case let WebDriverError.protocolError(code: .javascriptError, message, _) = error else { return false }
                return message == "Document was unloaded"
            }
        }
    }

    /// A call whose script sends the page elsewhere and returns: its reply may come just after
    /// the navigation's commit event, and it is the call's answer, as geckodriver's is.
    @Test func aCallThatEndsAsItsPageLeavesKeepsItsValue() async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await Self.onFirefox(server) { session in
            for round in 0..<12 {
                let next = round % 2 == 0 ? "/other" : "/"
                var answered: JSONValue?
                // A call made while the last round's navigation is under way is left to the driver.
                for _ in 0..<100 where answered == nil {
                    answered = try await session.executeScriptThroughBiDi(
                        serializedScript: Self.serialized("location.href = '\(next)'; return \(round)"), timeout: 20)
                    if answered == nil { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(answered == .integer(Int64(round)), "round \(round)")
                try await Task.sleep(for: .milliseconds(300))
            }
        }
    }

    @Test func aScriptThatNeverEndsMeetsTheSessionsScriptTimeout() async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await Self.onFirefox(server) { session in
            try await session.setTimeouts(script: 1)
            await #expect {
                _ = try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("return new Promise(function () {})"), timeout: 20)
            } throws: { error in
                guard case WebDriverError.protocolError(code: .scriptTimeout, _, _) = error else { return false }
                return true
            }
        }
    }

    /// A BiDi connection that ends (closed here for real, as the browser's remote agent or a proxy
    /// on the way may close it) leaves the calls to the driver: a call under way fails as one the
    /// driver lost, not as a browser that is gone; later calls go through geckodriver; and a page
    /// session's runs and visits go on, with the page's values.
    @Test func callsGoThroughTheDriverOnceTheConnectionEnded() async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await Self.onFirefox(server) { session in
            #expect(try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("return 1")) == .integer(1))
            let connection = try await session.bidi()
            let slow = "return new Promise(function (done) { setTimeout(function () { done(2); }, 2000); })"
            let pending = Task { () -> Result<JSONValue?, WebDriverError> in
                do throws(WebDriverError) {
                    return .success(try await session.executeScriptThroughBiDi(serializedScript: Self.serialized(slow), timeout: 20))
                } catch {
                    return .failure(error)
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            await connection.close()
            let outcome = await pending.value
            guard case .failure(.unknownProtocolError(code: "BiDi", _)) = outcome else {
                Issue.record("the call under way: \(outcome)")
                return
            }
            #expect(try await session.executeScriptThroughBiDi(serializedScript: Self.serialized("return 3")) == nil)
            let page = PageSession(session: session, scriptTimeout: 10)
            #expect(try await page.run(script: "document.title").value == .string("Calls"))
            #expect(try await page.run(script: "location.pathname").value == .string("/"))
            // A visit: the navigation too goes through the driver.
            guard case let .ran(visited, _) = try await page.openAndRun(server.url("/other"), script: "document.title", timeout: 20) else {
                Issue.record("the visit did not run")
                return
            }
            #expect(visited.value == .string("Other"))
            #expect(visited.context.url == server.url("/other"))
        }
    }
}
