import Engines
import Foundation
import PageRuntime
import SystemSupport
import TestSupport
import UserScripts

/// Pages and helpers shared by the PageRuntime tests: real loopback servers, real engines.
enum PageFixtures {
    /// WebKit and Chromium: for what PageScript's own code does alike on every engine (the
    /// runtime's JavaScript, the library), where Firefox would add only its slow session starts.
    static let engines: [Engine] = [.webkit, .chromium]
    /// Every engine Linux has, for what each engine's own path does (errors, dialogs, loads,
    /// navigations, document-start, frames, the page's defences).
    static let everyEngine: [Engine] = [.webkit, .chromium, .firefox]

    /// What strict sites send: no inline scripts, no eval, no inline styles.
    static let strictPolicy = ["Content-Security-Policy": "script-src 'self'; style-src 'self'"]

    /// A page served with the strict policy whose own script is `script` (served from the same
    /// origin, as the policy allows).
    static func strictPage(title: String, body: String = "", script: String? = nil) -> [String: LoopbackResponse] {
        var responses = ["/": LoopbackResponse(
            html: "<!doctype html><html><head><title>\(title)</title>\(script == nil ? "" : "<script src=\"/page.js\"></script>")</head><body>\(body)</body></html>",
            headers: strictPolicy)]
        if let script { responses["/page.js"] = LoopbackResponse(body: script, contentType: "text/javascript") }
        return responses
    }

    /// Runs `body` on `path` of `server` in a fresh browser of `engine`, and stops everything after.
    static func onPage(_ engine: Engine, _ server: LoopbackServer, path: String = "/", dialogs: DialogPolicy = .dismiss,
                       scriptTimeout: Double = 10, bypassesContentSecurityPolicy: Bool = false,
                       _ body: @escaping @Sendable (PageSession) async throws -> Void) async throws {
        let failure = try await withPage(engine, url: server.url(path), dialogs: dialogs, scriptTimeout: scriptTimeout,
                                         bypassesContentSecurityPolicy: bypassesContentSecurityPolicy) { page in
            do {
                try await body(page)
                return nil as (any Error)?
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    static func withPage<Output: Sendable>(_ engine: Engine, url: String, dialogs: DialogPolicy = .dismiss, scriptTimeout: Double = 10,
                                           bypassesContentSecurityPolicy: Bool = false,
                                           _ body: @escaping @Sendable (PageSession) async -> Output) async throws -> Output {
        try await PageRunner.withPage(on: .local(engine), url: url, scriptTimeout: scriptTimeout, dialogs: dialogs,
                                      bypassesContentSecurityPolicy: bypassesContentSecurityPolicy) { page, _ throws(PageRunner.Failure) in
            await body(page)
        }
    }
}

extension PageFixtures {
    /// Runs `script` as a userscript, with `host`'s GM API, on a page of `engine` at `url`; a run
    /// that did not complete is thrown.
    static func runUserScript(_ script: UserScript, on engine: Engine, url: String, host: GMHost,
                              scriptTimeout: Double = 10) async throws -> ScriptResult {
        try await withPage(engine, url: url, scriptTimeout: scriptTimeout) { page -> Result<ScriptResult, InjectionError> in
            do throws(InjectionError) {
                return .success(try await page.run(userScript: script, id: nil, host: host))
            } catch {
                return .failure(error)
            }
        }.get()
    }
}

extension PageSession {
    /// Runs `code` as a userscript (explicit `return` for a value), the mode whose text runs as
    /// written.
    func script(_ code: String, requiredURL: String? = nil, timeout: Double? = nil) async throws -> ScriptResult {
        try await run(script: code, requiredURL: requiredURL, mode: .userscript, timeout: timeout)
    }
}
