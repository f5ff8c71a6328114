import Foundation
import SystemSupport
import TestSupport
import Testing

/// Real scripts through `pagescript scripts import/export/show/which` and `pagescript run`: files
/// kept byte for byte, PageScript's reading of them printed, and the managers' semantics on real
/// WebKit and Chromium.
@Suite(.serialized)
struct ImportedScriptCommandTests {
    static let engines = ["webkit", "chromium"]

    /// A folder and a library in the temporary directory, removed afterwards.
    final class Workspace {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-import-\(UUID().uuidString)")
        var library: String { root.appendingPathComponent("library").path }

        @discardableResult
        func write(_ bytes: [UInt8], to name: String) throws -> URL {
            let file = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
            return file
        }

        func read(_ name: String) throws -> [UInt8] {
            Array(try Data(contentsOf: root.appendingPathComponent(name)))
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }
    }

    static let crlfWithBOM: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        "// ==UserScript==\r\n// @name         Windows script\r\n// @name:fr      Script Windows\r\n// This line is a comment\r\n"
        + "// @match        https://example.com/*\r\n// @include      *.google.*\r\n// @include      /^https?:\\/\\/(www\\.)?example\\.org\\//\r\n"
        + "// @include      /https?:\\/\\/.*example\\.net/\r\n// @exclude      *logout*\r\n// @require      https://code.jquery.com/jquery-3.7.1.min.js#sha256=abc123\r\n"
        + "// @name         Again\r\n// ==/UserScript==\r\n\r\nvoid 0;\r\n").utf8)

    @Test func importAndExportThroughTheCommandKeepEveryByteAndSayHowTheScriptIsRead() async throws {
        let workspace = Workspace()
        try workspace.write(Self.crlfWithBOM, to: "downloads/windows.user.js")
        try workspace.write(Array("// ==UserScript==\n// @name Plain\n// @match https://example.com/*\n// ==/UserScript==\ngo()".utf8), to: "downloads/sub/plain.user.js")
        try workspace.write([0x2F, 0x2F, 0x20, 0xE9, 0x0A], to: "downloads/latin1.user.js")

        // --no-fetch: the @require points at the internet, which tests never reach.
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", workspace.root.appendingPathComponent("downloads").path, "--no-fetch", "-v", "--library", workspace.library])
        #expect(imported.status == 1, "a file that is not UTF-8 is refused: \(imported.standardError)")
        let lines = imported.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasPrefix("refused\t-\tlatin1.user.js: is not UTF-8 text") })
        let windowsLine = try #require(lines.first { $0.hasPrefix("imported\t") && $0.hasSuffix("\twindows.user.js") })
        let id = String(windowsLine.split(separator: "\t")[1])
        let notes = imported.standardError
        #expect(notes.contains("windows.user.js: runs automatically at document-idle (no @run-at: Tampermonkey's default)"))
        #expect(notes.contains("windows.user.js: line 6: @include *.google.* set aside (the script's other rules stand)"))
        #expect(notes.contains("windows.user.js: line 8: @include /https?:\\/\\/.*example\\.net/ set aside"))
        #expect(notes.contains("Did you mean `*://*.example.net/*`?"))
        #expect(notes.contains("windows.user.js: line 11: @name appears again (first on line 2)"))
        #expect(notes.contains("windows.user.js: 1 comment line in the metadata block is ignored"))

        let stored = try FileManager.default.contentsOfDirectory(atPath: workspace.library).filter { $0.hasSuffix("-\(id).user.js") }
        #expect(stored.count == 1)
        #expect(try workspace.read("library/\(stored[0])") == Self.crlfWithBOM)

        let source = try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--source", "--library", workspace.library])
        #expect(Array(source.standardOutput.utf8) == Self.crlfWithBOM)

        let shown = try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--library", workspace.library])
        #expect(shown.status == 0, "\(shown.standardError)")
        let report = shown.standardOutput
        #expect(report.contains("name: Windows script\n"))
        #expect(report.contains("runs: automatically at document-idle (no @run-at: Tampermonkey's default)\n"))
        #expect(report.contains("  line 5: @match https://example.com/* (as written)\n"))
        #expect(report.contains("  line 7: @include /^https?:\\/\\/(www\\.)?example\\.org\\// (as written, on example.org, www.example.org)\n"))
        #expect(report.contains("  line 9: @exclude *logout* broadened: matched against the whole address"))
        #expect(report.contains("requires:\n  line 10: https://code.jquery.com/jquery-3.7.1.min.js (sha256=abc123)\n"))
        #expect(report.contains("  line 4: `// This line is a comment` is not a `// @key value` line, so it is a comment"))

        let exported = try await PageScriptBinary.outcome(of: ["scripts", "export", workspace.root.appendingPathComponent("export").path, "--library", workspace.library])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try workspace.read("export/Windows script.user.js") == Self.crlfWithBOM)
        #expect(try workspace.read("export/Plain.user.js") == Array("// ==UserScript==\n// @name Plain\n// @match https://example.com/*\n// ==/UserScript==\ngo()".utf8))

        let again = try await PageScriptBinary.outcome(of: ["scripts", "import", workspace.root.appendingPathComponent("export").path, "--library", workspace.library])
        #expect(again.standardOutput.split(separator: "\n").allSatisfy { $0.hasPrefix("unchanged\t") }, "\(again.standardOutput)")
    }

    /// Forty scripts make forty lines on standard output and, on standard error, one short line
    /// for each script that is not read as written, and none for the others; -v says the rest.
    @Test func importingManyScriptsSaysOneLineOfEachAndTheRestWithVerbose() async throws {
        let workspace = Workspace()
        for number in 1...40 {
            // Every other script has a rule PageScript sets aside and a comment in its block.
            let extra = number.isMultiple(of: 2) ? "// @include *.google.*\n// a comment\n" : ""
            try workspace.write(Array("// ==UserScript==\n// @name Script \(number)\n// @match https://example.com/*\n\(extra)// ==/UserScript==\n\(number)\n".utf8),
                                to: "many/script-\(number).user.js")
        }
        let folder = workspace.root.appendingPathComponent("many").path
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", folder, "--library", workspace.library])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.split(separator: "\n").filter { $0.hasPrefix("imported\t") }.count == 40, "\(imported.standardOutput)")
        let notes = imported.standardError.split(separator: "\n")
        #expect(notes.count == 20, "one line per script read differently, and nothing else:\n\(imported.standardError)")
        #expect(notes.allSatisfy { $0.contains("1 metadata line set aside or read narrower") && $0.contains("pagescript scripts show ") },
                "\(imported.standardError)")
        #expect(!imported.standardError.contains("script-1.user.js:"), "a script read as written gets no line")

        try FileManager.default.removeItem(atPath: workspace.library)
        let verbose = try await PageScriptBinary.outcome(of: ["scripts", "import", folder, "--verbose", "--library", workspace.library])
        #expect(verbose.standardError.contains("script-1.user.js: runs automatically at document-idle"), "\(verbose.standardError)")
        #expect(verbose.standardError.contains("script-2.user.js: line 4: @include *.google.* set aside"), "\(verbose.standardError)")
    }

    @Test func whichListsScriptsInTheOrderTheyRunWithTheRuleThatMatched() async throws {
        let workspace = Workspace()
        for (name, runAt) in [("a-idle", nil), ("b-start", "document-start"), ("c-end", "document-end"), ("d-start", "document-start"), ("e-menu", "context-menu")] {
            let runAtLine = runAt.map { "// @run-at \($0)\n" } ?? ""
            try workspace.write(Array("// ==UserScript==\n// @name \(name)\n// @include /^https:\\/\\/example\\.com\\//\n\(runAtLine)// ==/UserScript==\n".utf8),
                                to: "scripts/\(name).user.js")
        }
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", workspace.root.appendingPathComponent("scripts").path, "--library", workspace.library])
        #expect(imported.status == 0, "\(imported.standardError)")
        let which = try await PageScriptBinary.outcome(of: ["scripts", "which", "https://example.com/page", "--library", workspace.library])
        let rows = which.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[1] } == ["b-start", "d-start", "c-end", "a-idle"])
        #expect(rows.map { $0[2] } == ["runs at document-start", "runs at document-start", "runs at document-end", "runs at document-idle"])
        #expect(rows.first?[3] == "line 3: @include /^https:\\/\\/example\\.com\\// as /^https:\\/\\/example\\.com\\// on example.com")
        let all = try await PageScriptBinary.outcome(of: ["scripts", "which", "https://example.com/page", "--all", "--library", workspace.library])
        #expect(all.standardOutput.split(separator: "\n").last?.contains("e-menu\ton demand only") == true)
        #expect(try await PageScriptBinary.outcome(of: ["scripts", "which", "https://example.com.evil.net/", "--library", workspace.library]).standardOutput.isEmpty)
    }

    /// Imported scripts run as their manager ran them: in @run-at order, a proven expression on
    /// its site only, an exclusion honoured.
    @Test(arguments: engines)
    func importedScriptsRunInRunAtOrderOnTheirSiteOnly(engine: String) async throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>Home</title><p>home</p>",
            "/logout": "<!doctype html><title>Bye</title><p>bye</p>",
        ])
        defer { server.stop() }
        let workspace = Workspace()
        let host = "127\\.0\\.0\\.1:\(server.port)"
        let scripts = [
            ("alpha", "document-idle", "(window.__order = (window.__order || []).concat('alpha')).join(',')"),
            ("beta", "document-start", "(window.__order = (window.__order || []).concat('beta')).join(',')"),
            ("gamma", nil, "(window.__order = (window.__order || []).concat('gamma')).join(',')"),
            ("delta", "document-end", "(window.__order = (window.__order || []).concat('delta')).join(',')"),
        ]
        for (name, runAt, body) in scripts {
            let runAtLine = runAt.map { "// @run-at      \($0)\n" } ?? ""
            let text = "// ==UserScript==\n// @name        \(name)\n// @include     /^http:\\/\\/\(host)\\//\n// @exclude     *logout*\n\(runAtLine)// ==/UserScript==\n\(body)\n"
            try workspace.write(Array(text.utf8), to: "scripts/\(name).user.js")
        }
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", workspace.root.appendingPathComponent("scripts").path, "--library", workspace.library])
        #expect(imported.status == 0, "\(imported.standardError)")

        let home = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", workspace.library, "--json", "--engine", engine])
        #expect(home.status == 0, "\(home.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(home.standardOutput.utf8)) as? [String: Any])
        let results = try #require(object["scripts"] as? [[String: Any]])
        #expect(results.map { $0["name"] as? String } == ["beta", "delta", "alpha", "gamma"])
        #expect(results.last?["value"] as? String == "beta,delta,alpha,gamma")

        let excluded = try await PageScriptBinary.outcome(of: ["run", server.url("/logout"), "--library", workspace.library, "--json", "--engine", engine])
        #expect(excluded.standardOutput.contains("\"scripts\":[]"), "\(excluded.standardOutput)")
        let otherHost = try await PageScriptBinary.outcome(of: ["run", "http://localhost:\(server.port)/", "--library", workspace.library, "--json", "--engine", engine])
        #expect(otherHost.standardOutput.contains("\"scripts\":[]"), "\(otherHost.standardOutput)")
    }

    /// Import fetches each script's @require and @resource files once, into the library's cache;
    /// a file that cannot be fetched does not stop the import, and says what to do.
    @Test func importFetchesDeclaredFilesOnceAndReportsWhatIsMissing() async throws {
        let library = "window.fromTheLibrary = 42;\n"
        let server = try LoopbackServer(pages: ["/lib.js": library, "/style.css": "body { color: red }"])
        defer { server.stop() }
        let workspace = Workspace()
        try workspace.write(Array("""
            // ==UserScript==
            // @name     Needs a library
            // @match    https://example.com/*
            // @require  \(server.url("/lib.js"))
            // @resource css \(server.url("/style.css"))
            // ==/UserScript==
            fromTheLibrary

            """.utf8), to: "scripts/needs.user.js")
        try workspace.write(Array("""
            // ==UserScript==
            // @name     Missing library
            // @match    https://example.com/*
            // @require  \(server.url("/gone.js"))
            // ==/UserScript==
            1

            """.utf8), to: "scripts/missing.user.js")
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", workspace.root.appendingPathComponent("scripts").path, "-v", "--library", workspace.library])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("fetched @require \(server.url("/lib.js"))"), "\(imported.standardError)")
        #expect(imported.standardError.contains("fetched @resource"), "\(imported.standardError)")
        #expect(imported.standardError.contains("failed  @require \(server.url("/gone.js"))"), "\(imported.standardError)")
        #expect(imported.standardError.contains("scripts update"), "\(imported.standardError)")
        let cache = URL(fileURLWithPath: workspace.library).appendingPathComponent(".pagescript-cache")
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(cached.count == 2, "\(cached)")
        #expect(cached.contains { (try? String(contentsOf: cache.appendingPathComponent($0), encoding: .utf8)) == library })
    }
}
