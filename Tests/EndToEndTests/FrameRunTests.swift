import Foundation
import SystemSupport
import TestSupport
import Testing

/// The library's scripts run in a page's frames as the managers run them: in every frame whose
/// own address matches, same-origin, nested and cross-origin (another site, which Chromium runs
/// in a process of its own), except scripts with `@noframes`; each result names its frame. In
/// `run` and in a `batch` record alike, on both engines.
@Suite(.serialized)
struct FrameRunTests {
    /// The page: a same-origin frame holding another, and a frame on another site (`localhost`
    /// against `127.0.0.1`), added by the page's script as it is parsed.
    static func server() throws -> LoopbackServer {
        try LoopbackServer(pages: [
            "/": """
                <!doctype html><title>Top</title><iframe src="/framed"></iframe>
                <script>
                var other = document.createElement('iframe');
                other.src = location.origin.replace('127.0.0.1', 'localhost') + '/inner';
                document.body.appendChild(other);
                </script>
                """,
            "/framed": "<!doctype html><title>Framed</title><iframe src=\"/inner\"></iframe>",
            "/inner": "<!doctype html><title>Inner</title><p>inner</p>",
        ])
    }

    /// A library: one script for both hosts, one with `@noframes`, one for the other site's frame
    /// only, which uses the GM API there.
    static func library(at folder: String) async throws {
        let scripts = [
            "// ==UserScript==\n// @name Everywhere\n// @match http://127.0.0.1/*\n// @match http://localhost/*\n// ==/UserScript==\n"
                + "console.log('in', location.pathname); location.host + location.pathname + (window.top === window ? ' top' : ' frame')\n",
            "// ==UserScript==\n// @name Top only\n// @match http://127.0.0.1/*\n// @match http://localhost/*\n// @noframes\n// ==/UserScript==\n"
                + "location.pathname\n",
            "// ==UserScript==\n// @name Other site\n// @match http://localhost/inner\n// @grant GM_setValue\n// @grant GM_getValue\n"
                + "// ==/UserScript==\nGM_setValue('host', location.host); 'kept ' + GM_getValue('host')\n",
        ]
        for script in scripts {
            let created = try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", script, "--library", folder])
            #expect(created.status == 0, "\(created.standardError)")
        }
    }

    /// Each script's (name, frame, value) in a library report's `scripts`.
    static func entries(_ report: [String: Any]) -> Set<String> {
        Set((report["scripts"] as? [[String: Any]] ?? []).map { entry in
            let frame = entry["frame"] as? String ?? "-"
            return "\(entry["name"] as? String ?? "?") | \(frame) | \(entry["value"].map { "\($0)" } ?? "?")"
        })
    }

    static func expected(port: String) -> Set<String> {
        let top = "127.0.0.1:\(port)", other = "localhost:\(port)"
        return [
            "Everywhere | - | \(top)/ top",
            "Everywhere | http://\(top)/framed | \(top)/framed frame",
            "Everywhere | http://\(top)/inner | \(top)/inner frame",
            "Everywhere | http://\(other)/inner | \(other)/inner frame",
            "Top only | - | /",
            "Other site | http://\(other)/inner | kept \(other)",
        ]
    }

    @Test(arguments: ["webkit", "chromium", "firefox"])
    func libraryScriptsRunInEveryMatchingFrameButNoframes(engine: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-frames-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = folder + "/library"
        try await Self.library(at: library)
        let port = String(server.url("/").split(separator: ":").last?.prefix { $0.isNumber } ?? "")

        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--json", "--library", library, "--engine", engine])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(Self.entries(report) == Self.expected(port: port), "\(run.standardOutput)")
        // Console lines belong to the frame's entry.
        let scripts = report["scripts"] as? [[String: Any]] ?? []
        let cross = scripts.first { $0["name"] as? String == "Everywhere" && ($0["frame"] as? String)?.contains("localhost") == true }
        #expect((cross?["console"] as? [[String: Any]])?.first?["message"] as? String == "in /inner", "\(run.standardOutput)")

        // The terminal's lines and a batch record are drawn from the same report on every
        // engine: Firefox, the slowest to start, is spared those two runs.
        guard engine != "firefox" else { return }
        // The terminal's lines say which frame each script ran in.
        let plain = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--library", library, "--engine", engine])
        #expect(plain.standardError.contains("(matched http://localhost/inner) in the frame <http://localhost:\(port)/inner>"), "\(plain.standardError)")

        // A batch record carries the same entries.
        let list = folder + "/urls.txt"
        try Data((server.url("/") + "\n").utf8).write(to: URL(fileURLWithPath: list))
        let batch = try await PageScriptBinary.outcome(of: ["batch", list, "--library", library, "--engine", engine, "--jobs", "1"])
        #expect(batch.status == 0, "\(batch.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(batch.standardOutput.utf8)) as? [String: Any])
        #expect(Self.entries(record) == Self.expected(port: port), "\(batch.standardOutput)")
    }

    /// browse runs them in the frames of each new document too, and its lines name the frame.
    @Test(arguments: ["webkit", "chromium"])
    func browseRunsScriptsInFrames(engine: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-frames-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = folder + "/library"
        try await Self.library(at: library)
        let other = server.url("/inner").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let browse = try BrowseCommandTests.BrowseSession([server.url("/"), "--engine", engine, "--library", library]) {
            $0.hasPrefix("ran\t") && $0.contains("\tOther site\t\(other)\t")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tEverywhere\t") }.count == 4, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tTop only\t") }.count == 1, "\(lines)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }
}
