import Foundation
import SystemSupport
import TestSupport
import Testing

/// `--wait-until` and pages whose load does not finish, end to end: the built binary, real
/// engines, a loopback server whose image or script never arrives.
@Suite(.serialized)
struct WaitUntilTests {
    static let engines = ["webkit", "chromium"]

    /// `/stalled-image` (an image whose response never ends), `/stalled-script` (a script in the
    /// head whose response never ends: never parsed), `/slow-image` (an image that comes after
    /// four seconds), `/late-fetch` (a fetch started after the load).
    static func site() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.target {
            case "/stalled-image":
                return .page("<!doctype html><title>Stalled</title><p>text</p><img src=\"/never.png\">")
            case "/stalled-script":
                return .page("<!doctype html><html><head><title>Blocked</title><script src=\"/never.js\"></script></head><body>x</body></html>")
            case "/slow-image":
                return .page("<!doctype html><title>Slow</title><p>text</p><img src=\"/slow.png\">")
            case "/late-fetch":
                return .page("""
                    <!doctype html><title>Late</title><script>
                    addEventListener("load", function () {
                        setTimeout(function () { fetch("/late").then(function (r) { return r.text(); }).then(function (t) { window.late = t; }); }, 100);
                    });
                    </script>
                    """)
            case "/late":
                return LoopbackResponse(body: "arrived", contentType: "text/plain", delay: 0.3)
            case "/slow.png":
                return LoopbackResponse(status: 200, headers: [("Content-Type", "image/png")], body: [], delay: 4)
            case "/never.png":
                return .headThenStall(headers: [("Content-Type", "image/png")])
            case "/never.js":
                return .headThenStall(headers: [("Content-Type", "text/javascript")])
            default:
                return .notFound
            }
        }
    }

    func run(_ arguments: [String]) async throws -> (PageScriptBinary.Outcome, Double) {
        let started = Date()
        let outcome = try await PageScriptBinary.outcome(of: ["run"] + arguments)
        return (outcome, Date().timeIntervalSince(started))
    }

    @Test(arguments: engines)
    func aPageWhoseImageNeverArrivesGetsItsScriptWithAWarning(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let (outcome, seconds) = try await run([server.url("/stalled-image"), "--timeout", "5", "-e", "document.title", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "\"Stalled\"\n")
        #expect(outcome.standardError.contains("pagescript: the page did not finish loading within 5 s"), "\(outcome.standardError)")
        #expect(seconds < 20)

        let (json, _) = try await run([server.url("/stalled-image"), "--timeout", "5", "-e", "document.title", "--json", "--engine", engine])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["value"] as? String == "Stalled")
        let load = try #require(object["load"] as? [String: Any], "\(json.standardOutput)")
        #expect(load["finished"] as? Bool == false)
        #expect(load["timeout"] as? Double == 5)
    }

    @Test(arguments: engines)
    func aPageNeverParsedIsStillALoadTimeout(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let (outcome, _) = try await run([server.url("/stalled-script"), "--timeout", "4", "-e", "document.title", "--json", "--engine", engine])
        #expect(outcome.status == 4, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("\"LoadTimeout\""), "\(outcome.standardOutput)")
    }

    @Test(arguments: engines)
    func domContentLoadedRunsBeforeASlowImage(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let (outcome, _) = try await run([server.url("/slow-image"), "--wait-until", "domcontentloaded", "-e",
                                          "[document.readyState !== 'complete', document.images[0].complete]", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // WebKitGTK's driver cannot be asked for less than the load (``LoadWait/domContentLoaded``).
        #expect(outcome.standardOutput == (engine == "webkit" ? "[false,true]\n" : "[true,false]\n"))
        #expect(!outcome.standardError.contains("did not finish loading"))
    }

    @Test(arguments: engines)
    func idleWaitsForAFetchAfterTheLoad(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let (idle, _) = try await run([server.url("/late-fetch"), "--wait-until", "idle", "-e", "window.late", "--engine", engine])
        #expect(idle.status == 0, "\(idle.standardError)")
        #expect(idle.standardOutput == "\"arrived\"\n")
        let (load, _) = try await run([server.url("/late-fetch"), "-e", "window.late === undefined", "--engine", engine])
        #expect(load.standardOutput == "true\n", "\(load.standardError)")
    }

    @Test(arguments: engines)
    func libraryScriptsRunOnAPageWhoseImageNeverArrives(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let page = server.url("/stalled-image")
        for runAt in ["document-end", "document-idle"] {
            let saved = try await PageScriptBinary.outcome(of: ["scripts", "new", runAt, "--match", "http://127.0.0.1/*", "--run-at", runAt,
                                                                "-e", "document.title + ' \(runAt)'", "--library", library])
            #expect(saved.status == 0, "\(saved.standardError)")
        }
        let (outcome, _) = try await run([page, "--timeout", "5", "--library", library, "--json", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("\"value\":\"Stalled document-end\""), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("\"value\":\"Stalled document-idle\""), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("\"load\":{\"finished\":false"), "\(outcome.standardOutput)")
    }

    @Test(arguments: engines)
    func batchRecordsAPageThatRanAfterAnUnfinishedLoadAsOK(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-wait-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try BatchCommandTests.writeList([server.url("/stalled-image"), server.url("/stalled-script")], in: folder)
        let output = folder + "/out.jsonl"
        let batch = try BatchCommandTests.RunningBatch(
            [list, "-e", "document.title", "--engine", engine, "--jobs", "1", "--timeout", "4", "--retries", "0", "--ordered", "--output", output],
            in: folder)
        _ = batch.wait()
        let records = try BatchCommandTests.records(String(contentsOfFile: output, encoding: .utf8))
        #expect(records.count == 2, "\(batch.standardError)")
        guard records.count == 2 else { return }
        #expect(records[0]["status"] as? String == "ok", "\(records[0])")
        #expect(records[0]["value"] as? String == "Stalled")
        #expect((records[0]["load"] as? [String: Any])?["finished"] as? Bool == false, "\(records[0])")
        #expect(records[1]["status"] as? String == "timeout", "\(records[1])")
    }
}
