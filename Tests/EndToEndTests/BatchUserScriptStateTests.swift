import Foundation
import SystemSupport
import TestSupport
import Testing

/// A userscript's state in `pagescript batch` is what a manager's tabs share: every page starts
/// from the values the pages before it left (in the library for a library script, for the batch
/// for code that is not in the library), and a `GM_saveTab` object lasts across the pages of one
/// session, as a tab's lasts across its navigations.
struct BatchUserScriptStateTests {
    /// Counts pages with `GM_setValue` and remembers them in the tab's object.
    static func counter(named name: String) -> String {
        """
        // ==UserScript==
        // @name \(name)
        // @grant GM_getValue
        // @grant GM_setValue
        // @grant GM.getTab
        // @grant GM.saveTab
        // ==/UserScript==
        const count = GM_getValue("count", 0) + 1;
        GM_setValue("count", count);
        const tab = await GM.getTab();
        tab.seen = (tab.seen || []).concat(location.pathname);
        await GM.saveTab(tab);
        ({ count, seen: tab.seen.join(" ") })
        """
    }

    /// The records of a batch over `/a`, `/b` and `/c` of `server`, one page at a time, in order.
    static func records(_ script: [String], server: LoopbackServer, library: String, engine: String) async throws -> [[String: Any]] {
        let folder = try TemporaryDirectory("batch-state")
        let list = try folder.write(["/a", "/b", "/c"].map { server.url($0) + "\n" }.joined(), to: "urls.txt")
        let batch = try await PageScriptBinary.outcome(of: ["batch", list.path] + script
            + ["--library", library, "--engine", engine, "--jobs", "1", "--ordered"])
        #expect(batch.status == 0, "\(batch.standardError)")
        return try batch.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    static func pages() throws -> LoopbackServer {
        try LoopbackServer(pages: ["/a": "<title>A</title>", "/b": "<title>B</title>", "/c": "<title>C</title>"])
    }

    /// Code that is not in the library keeps its values for the batch: the pages count 1, 2, 3,
    /// and the next batch starts again; the tab's object carries the pages seen so far.
    @Test(arguments: ["webkit", "chromium", "firefox"])
    func codeOutsideTheLibraryKeepsItsValuesForTheBatch(engine: String) async throws {
        let library = try TemporaryDirectory("batch-state-library")
        let server = try Self.pages()
        defer { server.stop() }
        let code = Self.counter(named: "Batch counter")
        let first = try await Self.records(["-e", code], server: server, library: library.path, engine: engine)
        #expect(first.map { ($0["value"] as? [String: Any])?["count"] as? Int } == [1, 2, 3], "\(first)")
        #expect(first.map { ($0["value"] as? [String: Any])?["seen"] as? String } == ["/a", "/a /b", "/a /b /c"], "\(first)")
        #expect(first.allSatisfy { ($0["userscript"] as? [String: Any])?["valuesKept"] as? String == "session" }, "\(first)")
        let second = try await Self.records(["-e", code], server: server, library: library.path, engine: engine)
        #expect(second.map { ($0["value"] as? [String: Any])?["count"] as? Int } == [1, 2, 3], "\(second)")
    }

    /// A library script keeps its values in the library: each page sees the one before it, and
    /// the next batch goes on from there.
    @Test func aLibraryScriptKeepsItsValuesAcrossPagesAndBatches() async throws {
        let library = try TemporaryDirectory("batch-state-library")
        let server = try Self.pages()
        defer { server.stop() }
        let saved = try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", Self.counter(named: "Kept counter"), "--library", library.path])
        #expect(saved.status == 0, "\(saved.standardError)")
        let first = try await Self.records(["--script", "Kept counter"], server: server, library: library.path, engine: "chromium")
        #expect(first.map { ($0["value"] as? [String: Any])?["count"] as? Int } == [1, 2, 3], "\(first)")
        #expect(first.allSatisfy { ($0["userscript"] as? [String: Any])?["valuesKept"] as? String == "library" }, "\(first)")
        let second = try await Self.records(["--script", "Kept counter"], server: server, library: library.path, engine: "chromium")
        #expect(second.map { ($0["value"] as? [String: Any])?["count"] as? Int } == [4, 5, 6], "\(second)")
    }

    /// A session replaced after a page that never ends is a closed tab: its object is gone from
    /// `GM.getTabs()`, and the next page starts a tab of its own.
    @Test func aReplacedSessionsTabObjectGoesWithIt() async throws {
        let library = try TemporaryDirectory("batch-state-library")
        let server = try LoopbackServer(pages: [
            "/a": "<title>A</title>", "/b": "<title>B</title>",
            "/loop": "<title>Loop</title><script>addEventListener('load', () => { while (true) {} })</script>",
        ])
        defer { server.stop() }
        let code = """
            // ==UserScript==
            // @name Tab keeper
            // @grant GM.getTab
            // @grant GM.saveTab
            // @grant GM.getTabs
            // ==/UserScript==
            const tab = await GM.getTab();
            tab.seen = (tab.seen || []).concat(location.pathname);
            await GM.saveTab(tab);
            ({ seen: tab.seen.join(" "), tabs: Object.keys(await GM.getTabs()).length })
            """
        let folder = try TemporaryDirectory("batch-state")
        let list = try folder.write(["/a", "/loop", "/b"].map { server.url($0) + "\n" }.joined(), to: "urls.txt")
        let batch = try await PageScriptBinary.outcome(of: ["batch", list.path, "-e", code, "--library", library.path, "--engine", "chromium",
                                                            "--jobs", "1", "--ordered", "--timeout", "3"])
        let records = try batch.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(records.map { $0["status"] as? String } == ["ok", "timeout", "ok"], "\(batch.standardOutput) \(batch.standardError)")
        let values = records.map { $0["value"] as? [String: Any] }
        #expect(values.map { $0?["seen"] as? String } == ["/a", nil, "/b"], "\(records)")
        #expect(values.map { $0?["tabs"] as? Int } == [1, nil, 1], "\(records)")
    }
}
