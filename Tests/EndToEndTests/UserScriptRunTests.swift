import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript run` gives userscripts their GM API: code with a metadata block, `--script` with
/// values kept in the library, `--menu`, and what a script reports in `--json`.
struct UserScriptRunTests {
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-gm-\(UUID().uuidString)").path

    @Test func aLibraryScriptKeepsItsValuesAndRunsItsMenuCommand() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>"])
        defer { server.stop() }
        let code = """
            // ==UserScript==
            // @name Counter
            // @grant GM_getValue
            // @grant GM_setValue
            // @grant GM_registerMenuCommand
            // @grant GM_setClipboard
            // @grant GM_webRequest
            // ==/UserScript==
            const count = GM_getValue("count", 0) + 1;
            GM_setValue("count", count);
            GM_registerMenuCommand("Reset", () => { GM_setValue("count", 0); console.log("reset from", count); });
            GM_setClipboard("count " + count);
            count
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("counter-\(UUID().uuidString).user.js")
        try Data(code.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try PageScriptBinary.run(["scripts", "import", file.path, "--library", library])
        #expect(imported.status == 0, "\(imported.standardError)")
        let first = try PageScriptBinary.run(["run", server.url(), "--script", "Counter", "--library", library, "--engine", "chromium", "--json"])
        #expect(first.status == 0, "\(first.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(object["value"] as? Int == 1)
        let activity = try #require(object["userscript"] as? [String: Any])
        #expect(activity["menuCommands"] as? [String] == ["Reset"])
        #expect(activity["clipboard"] as? [[String: String]] == [["data": "count 1", "type": "text", "mimetype": "text/plain"]])
        #expect(activity["unprovidedGrants"] as? [String] == ["GM_webRequest"])

        let second = try PageScriptBinary.run(["run", server.url(), "--script", "Counter", "--library", library, "--menu", "Reset"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput == "2\n")
        #expect(second.standardError.contains("console.log: reset from 2"), "\(second.standardError)")
        #expect(second.standardError.contains("@grant GM_webRequest: not provided by PageScript"), "\(second.standardError)")

        let values = try PageScriptBinary.run(["scripts", "values", "Counter", "--json", "--library", library])
        #expect(values.standardOutput.contains("\"count\":0") || values.standardOutput.contains("\"count\": 0"), "\(values.standardOutput)")

        // The file itself, run with -f, has the library script's @name and @namespace: it runs as
        // that script, with its values, as the managers treat a new version of an installed one.
        let asFile = try PageScriptBinary.run(["run", server.url(), "-f", file.path, "--library", library, "--engine", "chromium", "--json"])
        let fileRun = try #require(try JSONSerialization.jsonObject(with: Data(asFile.standardOutput.utf8)) as? [String: Any], "\(asFile.standardError)")
        #expect(fileRun["value"] as? Int == 1)
        #expect((fileRun["userscript"] as? [String: Any])?["valuesKept"] as? String == "library")
        let after = try PageScriptBinary.run(["scripts", "values", "Counter", "--json", "--library", library])
        #expect(after.standardOutput.contains("\"count\":1") || after.standardOutput.contains("\"count\": 1"), "\(after.standardOutput)")
        let renamed = try PageScriptBinary.run(["run", server.url(), "-e", code.replacingOccurrences(of: "@name Counter", with: "@name Other"),
                                                "--library", library, "--engine", "chromium"])
        #expect(renamed.standardOutput == "1\n", "another script's values are not shared: \(renamed.standardError)")
        #expect(renamed.standardError.contains("values: kept only while this session lasts"), "\(renamed.standardError)")
    }

    /// `--downloads DIR` is where `GM_download` saves: the file is there, and the run says where,
    /// on standard error and in `--json`; a second run keeps the first file and saves beside it.
    @Test func aDownloadGoesIntoTheDownloadsFolderAndIsReported() throws {
        let server = try LoopbackServer(route: { request in
            request.path == "/data.csv" ? .text("a,b\n1,2\n", type: "text/csv") : .page("<!doctype html><title>Page</title>")
        })
        defer { server.stop() }
        let downloads = try TemporaryDirectory("downloads")
        let code = """
            // ==UserScript==
            // @name Saver
            // @grant GM_download
            // ==/UserScript==
            await new Promise((resolve, reject) => GM_download({ url: "/data.csv", name: "tables/data.csv", saveAs: true, onload: resolve, onerror: reject }));
            "saved"
            """
        let first = try PageScriptBinary.run(["run", server.url(), "-e", code, "--downloads", downloads.path, "--engine", "chromium"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try downloads.read("tables/data.csv") == "a,b\n1,2\n")
        #expect(first.standardError.contains("download: /data.csv -> \(downloads.path("tables/data.csv")) (8 bytes); saveAs ignored"), "\(first.standardError)")
        let second = try PageScriptBinary.run(["run", server.url(), "-e", code, "--downloads", downloads.path, "--engine", "chromium", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any], "\(second.standardError)")
        let saved = try #require(((object["userscript"] as? [String: Any])?["downloads"] as? [[String: Any]])?.first)
        #expect(saved["path"] as? String == downloads.path("tables/data (1).csv"))
        #expect(saved["bytes"] as? Int == 8)
        #expect(try downloads.entries("tables") == ["data (1).csv", "data.csv"])
    }

    /// A Greasemonkey 4 script has no `@connect` lines: a request to the page's own host needs none
    /// (as in Tampermonkey), and `onprogress` is called before `onload`.
    @Test(arguments: ["webkit", "chromium", "firefox"])
    func aRequestToThePagesOwnHostNeedsNoConnectLineAndReportsProgress(engine: String) throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<!doctype html><title>Page</title>"),
            "/data.txt": LoopbackResponse(body: "twelve bytes", contentType: "text/plain"),
        ])
        defer { server.stop() }
        let code = """
            // ==UserScript==
            // @grant GM.xmlHttpRequest
            // ==/UserScript==
            const seen = [];
            const response = await GM.xmlHttpRequest({ url: "/data.txt", onprogress: event => seen.push("progress " + event.loaded) });
            seen.concat(response.responseText)
            """
        let outcome = try PageScriptBinary.run(["run", server.url(), "-e", code, "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "[\"progress 12\",\"twelve bytes\"]\n", "\(outcome.standardError)")
        // The refusal is PageScript's own, the same on every engine.
        guard engine == "webkit" else { return }
        let foreign = try PageScriptBinary.run(["run", server.url(), "-e", code.replacingOccurrences(of: "\"/data.txt\"", with: "\"http://localhost:\(server.port)/data.txt\""),
                                                "--engine", engine])
        #expect(foreign.standardError.contains("// @connect localhost"), "\(foreign.standardError)")
    }

    @Test func codeWithAMetadataBlockGetsTheAPIAndPlainCodeDoesNot() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>"])
        defer { server.stop() }
        let userscript = "// ==UserScript==\n// @grant GM_info\n// ==/UserScript==\nGM_info.scriptHandler"
        let withBlock = try PageScriptBinary.run(["run", server.url(), "-e", userscript, "--library", library])
        #expect(withBlock.status == 0, "\(withBlock.standardError)")
        #expect(withBlock.standardOutput == "\"PageScript\"\n")
        let plain = try PageScriptBinary.run(["run", server.url(), "-e", "typeof GM_info", "--library", library])
        #expect(plain.standardOutput == "\"undefined\"\n", "\(plain.standardError)")
    }

    /// A request to a host the script's `@connect` lines do not name is refused in `run` and
    /// `batch`, naming the line to add and the option; `--connect HOST` allows it for the run.
    @Test func anUndeclaredHostIsRefusedUnlessTheRunAllowsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>", "/data": "<title>data</title>"])
        defer { server.stop() }
        let script = """
            // ==UserScript==
            // @name Reacher
            // @grant GM_xmlhttpRequest
            // ==/UserScript==
            await new Promise(function (done) {
              GM_xmlhttpRequest({ method: 'GET', url: location.origin.replace('127.0.0.1', 'localhost') + '/data',
                onload: function (r) { done('reached ' + r.status); }, onerror: function (e) { done('refused: ' + e.error); } });
            });
            """
        let refused = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", script, "--library", library, "--engine", "chromium"])
        #expect(refused.standardOutput.contains("refused: ") && refused.standardOutput.contains("@connect localhost")
                && refused.standardOutput.contains("--connect localhost"), "\(refused.standardOutput) \(refused.standardError)")
        let allowed = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", script, "--connect", "localhost", "--library", library,
                                                              "--engine", "chromium"])
        #expect(allowed.standardOutput == "\"reached 200\"\n", "\(allowed.standardOutput) \(allowed.standardError)")
        // The page's own host never needs a line.
        let own = script.replacingOccurrences(of: "location.origin.replace('127.0.0.1', 'localhost')", with: "location.origin")
        let same = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", own, "--library", library, "--engine", "chromium"])
        #expect(same.standardOutput == "\"reached 200\"\n", "\(same.standardOutput) \(same.standardError)")
        // batch takes the same option.
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("connect-\(UUID().uuidString).txt")
        try Data((server.url() + "\n").utf8).write(to: list)
        defer { try? FileManager.default.removeItem(at: list) }
        let batch = try await PageScriptBinary.outcome(of: ["batch", list.path, "-e", script, "--connect", "*", "--library", library, "--jobs", "1",
                                                            "--engine", "chromium"])
        #expect(batch.standardOutput.contains("\"value\":\"reached 200\""), "\(batch.standardOutput) \(batch.standardError)")
    }

    /// A script installed before the page's own (document-start on Chromium) that awaits its own
    /// `GM_xmlhttpRequest` gets the response: the run its source started in the new document
    /// leaves the request for the runner that collects it, as any run does.
    @Test(arguments: ["webkit", "chromium", "firefox"])
    func aDocumentStartScriptAwaitingItsRequestGetsTheResponse(engine: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>", "/data": "<title>data</title>"])
        defer { server.stop() }
        let script = """
            // ==UserScript==
            // @name Early asker
            // @match \(server.url("/").dropLast())/
            // @run-at document-start
            // @grant GM_xmlhttpRequest
            // ==/UserScript==
            const status = await new Promise(function (done) {
              GM_xmlhttpRequest({ method: 'GET', url: '/data', onload: function (r) { console.log('loaded', r.status); done(r.status); } });
            });
            'status ' + status
            """
        #expect(try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", script, "--library", library]).status == 0)
        let run = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", library, "--engine", engine])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\"status 200\"\n", "\(run.standardOutput) \(run.standardError)")
        #expect(run.standardError.contains("console.log: loaded 200"), "\(run.standardError)")
    }

    /// `GM_openInTab` in `run` opens real tabs after the script, reports what each showed, and
    /// closes them before the run ends; a tab the script closed, an incognito one and an
    /// address a tab may not go to are not opened, and the result says why.
    @Test(arguments: ["webkit", "chromium"])
    func tabsTheScriptOpensAreOpenedReportedAndClosed(engine: String) throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>Page</title>", "/opened": "<!doctype html><title>Opened</title>",
            "/second": "<!doctype html><title>Second</title>", "/third": "<!doctype html><title>Third</title>",
        ])
        defer { server.stop() }
        let code = """
            // ==UserScript==
            // @name Opener
            // @grant GM_openInTab
            // @grant GM.openInTab
            // ==/UserScript==
            const first = GM_openInTab("/opened");
            const second = GM_openInTab("/second", true);
            let heard = "";
            second.onclose = () => { heard = "onclose"; };
            second.close();
            GM_openInTab("javascript:alert(1)");
            GM_openInTab("/third", { incognito: true });
            const third = await GM.openInTab("/third", { active: true, insert: true, setParent: true });
            [first.closed, second.closed, heard, typeof third.close, document.title]
            """
        let run = try PageScriptBinary.run(["run", server.url(), "-e", code, "--engine", engine, "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardError)")
        #expect(object["value"] as? NSArray == [false, true, "onclose", "function", "Page"] as NSArray, "\(run.standardOutput)")
        #expect(object["title"] as? String == "Page", "the run's page stays the one reported")
        let tabs = try #require((object["userscript"] as? [String: Any])?["tabs"] as? [[String: Any]])
        try #require(tabs.count == 5, "\(tabs)")
        #expect(tabs[0]["shownURL"] as? String == server.url("/opened") && tabs[0]["title"] as? String == "Opened", "\(tabs[0])")
        #expect(tabs[1]["closedByScript"] as? Bool == true && tabs[1]["active"] as? Bool == false && tabs[1]["shownURL"] == nil, "\(tabs[1])")
        #expect((tabs[2]["notOpened"] as? String)?.contains("only http and https") == true, "\(tabs[2])")
        #expect((tabs[3]["notOpened"] as? String)?.contains("incognito") == true, "\(tabs[3])")
        #expect(tabs[4]["title"] as? String == "Third" && tabs[4]["setParent"] as? Bool == true, "\(tabs[4])")
        #expect(server.requests(for: "/second") == 0, "a tab the script closed is never loaded")
        #expect(server.requests(for: "/third") == 1, "the incognito one is not opened")
        let text = try PageScriptBinary.run(["run", server.url(), "-e", code, "--engine", engine])
        #expect(text.standardError.contains("open in tab: /opened -> \(server.url("/opened")) (Opened), closed at the end of the run"), "\(text.standardError)")
        #expect(text.standardError.contains("open in tab: /second: closed by the script"), "\(text.standardError)")

        // The library's scripts that `run` runs on the page open theirs the same way.
        defer { try? FileManager.default.removeItem(atPath: library) }
        let opener = "// ==UserScript==\n// @name Library opener\n// @match \(server.url("/").dropLast())/\n// @grant GM_openInTab\n"
            + "// ==/UserScript==\nGM_openInTab('/opened'); 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", opener, "--library", library]).status == 0)
        let fromLibrary = try PageScriptBinary.run(["run", server.url(), "--library", library, "--engine", engine])
        #expect(fromLibrary.standardError.contains("open in tab: /opened -> \(server.url("/opened")) (Opened), closed at the end of the run"),
                "\(fromLibrary.standardOutput)\(fromLibrary.standardError)")
    }
}
