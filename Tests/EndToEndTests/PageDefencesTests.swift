import Foundation
import SystemSupport
import TestSupport
import Testing

/// A page's Content-Security-Policy is its defence against injected code, and PageScript leaves
/// it in force on every engine and in every command: the page's own inline script stays blocked
/// and `eval` stays refused, while `-e` code and library scripts (at `document-start` and after
/// the load) run, compiled outside the policy. Only `--bypass-csp` lifts it, on Chromium.
@Suite(.serialized)
struct PageDefencesTests {
    static let engines = ["webkit", "chromium", "firefox"]

    /// What a script finds on the page: whether the page's inline script ran, whether its own
    /// script file did, and what `eval` does.
    static let probe = """
        ({ inline: typeof window.inlineRan, external: window.externalRan === true, \
        evaluation: (() => { try { return eval("'ran'"); } catch (error) { return error.name; } })() })
        """

    static func strictSite() throws -> LoopbackServer {
        try LoopbackServer(responses: [
            "/": LoopbackResponse(html: """
                <!doctype html><html><head><title>Strict</title><script src="/page.js"></script>
                <script>window.inlineRan = true;</script></head><body><p>text</p></body></html>
                """, headers: ["Content-Security-Policy": "script-src 'self'"]),
            "/page.js": LoopbackResponse(body: "window.externalRan = true;", contentType: "text/javascript"),
        ])
    }

    static func library(matching base: String, runAt: [String]) throws -> String {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-defences-\(UUID().uuidString)").path
        for moment in runAt {
            // A document-start script looks once the page's own scripts had their chance (on
            // WebKit, which cannot run it before them, it runs after the load; on Firefox it runs
            // as a BiDi preload script, under the page's policy).
            let code = moment == "document-start"
                ? "if (document.readyState !== 'complete') { await new Promise((resolve) => addEventListener('load', resolve)); } \(probe)"
                : probe
            let created = try PageScriptBinary.run(["scripts", "new", "probe-\(moment)", "--match", "\(base)/*", "--run-at", moment,
                                                    "-e", code, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        return library
    }

    func jsonObject(_ outcome: PageScriptBinary.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
                     "\(outcome.standardOutput) \(outcome.standardError)")
    }

    func expectPolicyInForce(_ value: Any?, _ label: String) {
        let found = value as? [String: Any]
        #expect(found?["inline"] as? String == "undefined", "\(label): the page's inline script ran: \(String(describing: value))")
        #expect(found?["external"] as? Bool == true, "\(label): \(String(describing: value))")
        // Firefox compiles classic WebDriver's scripts outside the page's policy, as it does an
        // extension's content scripts: the user's own eval works there, the page's stays refused.
        // Its BiDi preload scripts (`document-start`) are the page's own code to its policy.
        let evaluation = label.hasPrefix("firefox") && !label.contains("document-start") ? "ran" : "EvalError"
        #expect(found?["evaluation"] as? String == evaluation, "\(label): \(String(describing: value))")
    }

    @Test(arguments: engines)
    func runKeepsThePagesPolicy(engine: String) async throws {
        let server = try Self.strictSite()
        defer { server.stop() }
        let code = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.probe, "--json", "--engine", engine])
        #expect(code.status == 0, "\(code.standardError)")
        expectPolicyInForce(try jsonObject(code)["value"], "\(engine) -e")

        let base = String(server.url().dropLast())
        let library = try Self.library(matching: base, runAt: ["document-start", "document-idle"])
        defer { try? FileManager.default.removeItem(atPath: library) }
        let scripts = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", library, "--json", "--engine", engine])
        #expect(scripts.status == 0, "\(scripts.standardError)")
        let entries = try #require(try jsonObject(scripts)["scripts"] as? [[String: Any]])
        #expect(entries.count == 2)
        for entry in entries {
            expectPolicyInForce(entry["value"], "\(engine) \(entry["name"] ?? "?")")
        }
    }

    /// Asked for, Chromium lifts the policy for the whole page; WebKit cannot, and says so.
    @Test(arguments: engines)
    func bypassCSPLiftsThePolicyOnlyWhenAsked(engine: String) async throws {
        let server = try Self.strictSite()
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.probe, "--json", "--engine", engine, "--bypass-csp"])
        if engine == "chromium" {
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let value = try jsonObject(outcome)["value"] as? [String: Any]
            #expect(value?["inline"] as? String == "boolean", "\(String(describing: value))")
            #expect(value?["evaluation"] as? String == "ran", "\(String(describing: value))")
        } else {
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains("--bypass-csp works only with Chromium"), "\(outcome.standardError)")
        }
    }

    /// `batch` (one script on every page) and `browse` (the library's scripts, in the browser the
    /// user looks at) leave the policy in force too.
    @Test(arguments: ["webkit", "chromium"])
    func batchAndBrowseKeepThePagesPolicy(engine: String) async throws {
        let server = try Self.strictSite()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-defences-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("urls.txt")
        try "\(server.url())\n\(server.url())\n".write(to: list, atomically: true, encoding: .utf8)
        let batch = try await PageScriptBinary.outcome(of: ["batch", list.path, "-e", Self.probe, "--engine", engine, "--jobs", "1"])
        #expect(batch.status == 0, "\(batch.standardError)")
        let records = batch.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.count == 2, "\(batch.standardOutput)")
        for record in records {
            expectPolicyInForce(record["value"], "\(engine) batch")
        }

        let base = String(server.url().dropLast())
        let library = try Self.library(matching: base, runAt: ["document-idle"])
        defer { try? FileManager.default.removeItem(atPath: library) }
        let browse = try BrowseCommandTests.BrowseSession([server.url(), "--engine", engine, "--library", library]) {
            $0.hasPrefix("ran\t") && $0.contains("probe-document-idle")
        }
        #expect(browse.sawTheLine, "\(browse.lines)")
        let ran = try #require(browse.lines.first { $0.hasPrefix("ran\t") && $0.contains("probe-document-idle") })
        let value = try JSONSerialization.jsonObject(with: Data(String(ran.split(separator: "\t").last ?? "").utf8))
        expectPolicyInForce(value, "\(engine) browse")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }
}
