import Foundation
import SystemSupport
import TestSupport
import Testing

/// `run --json` and a `batch` record describe a page with one report: the same page, script and
/// dialogs give the same members with the same values, for one script and for the library's
/// scripts, for a run that completed and for one that timed out. Batch's library mode installs
/// `document-start` scripts before the page's own, as `run` does.
@Suite(.serialized)
struct RunAndBatchReportTests {
    static let engines = ["webkit", "chromium"]
    /// What a batch record adds around the page's members.
    static let batchMembers: Set<String> = ["index", "input", "requested", "status", "httpStatus", "startedAt", "durationMs", "attempts", "engine", "schema", "fields"]

    /// A scratch folder with the URL list, and the library when a test makes one.
    final class Workspace {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-report-\(UUID().uuidString)").path
        var library: String { folder + "/library" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func list(_ urls: [String]) throws -> String {
            let path = folder + "/urls.txt"
            try Data(urls.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// `run`'s object and the batch's one record for the same arguments.
    static func both(url: String, _ arguments: [String], runOnly: [String] = [], batchOnly: [String] = [], in workspace: Workspace)
        async throws -> (run: JSONValue, record: JSONValue, runStatus: Int32, batchStatus: Int32) {
        let run = try await PageScriptBinary.outcome(of: ["run", url, "--json"] + arguments + runOnly)
        let batch = try await PageScriptBinary.outcome(of: ["batch", try workspace.list([url])] + arguments + batchOnly)
        let runObject = try JSONValue(parsing: run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let lines = batch.standardOutput.split(separator: "\n")
        try #require(lines.count == 1, "\(batch.standardOutput)\(batch.standardError)")
        return (runObject, try JSONValue(parsing: String(lines[0])), run.status, batch.status)
    }

    static func members(_ value: JSONValue) -> [String] {
        guard case let .object(pairs) = value else { return [] }
        return pairs.map(\.key)
    }

    @Test(arguments: engines)
    func aScriptsRunAndItsBatchRecordCarryTheSameMembers(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Same</title><p>text</p>"])
        defer { server.stop() }
        let workspace = try Workspace()
        let script = "console.log('checked', 1); alert('noted'); const sure = confirm('sure?'); ({ sure, name: prompt('name?', 'Ada') })"
        let (run, record, runStatus, batchStatus) = try await Self.both(
            url: server.url("/"), ["-e", script, "--dialogs", "accept", "--engine", engine], in: workspace)
        #expect(runStatus == 0)
        #expect(batchStatus == 0)
        #expect(Self.members(run) == ["url", "title", "httpStatus", "value", "console", "dialogs", "error"])
        // The record places the status with what the batch adds; its value is the run's.
        #expect(Self.members(record).filter { !Self.batchMembers.contains($0) } == Self.members(run).filter { $0 != "httpStatus" })
        for member in Self.members(run) {
            #expect(record[member] == run[member], "\(member): \(record[member].map(\.serialized) ?? "absent") in the record")
        }
        #expect(run["dialogs"]?.arrayValue?.count == 3)
        #expect(run["value"]?["name"]?.stringValue == "Ada")
    }

    /// A userscript (code with a metadata block) gets its GM API on every page of a batch, as in
    /// `run`, and the record has what `run --json` has for it, `userscript` included: the
    /// notifications, clipboard writes, menu commands and window calls it reported.
    @Test(arguments: engines)
    func aUserscriptsRunAndItsBatchRecordCarryTheSameMembers(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Userscript</title>"])
        defer { server.stop() }
        let workspace = try Workspace()
        let script = "// ==UserScript==\n// @name Batch GM\n// @grant GM_info\n// @grant GM_setValue\n// @grant GM_notification\n"
            + "// @grant GM_setClipboard\n// @grant GM_registerMenuCommand\n// @grant GM_unregisterMenuCommand\n// @grant window.close\n// ==/UserScript==\n"
            + "GM_notification({ text: 'Done', title: 'Batch', tag: 'batch', silent: true });\n"
            + "GM_setClipboard('<i>copied</i>', 'html');\n"
            + "GM_unregisterMenuCommand(GM_registerMenuCommand('Gone', () => {}));\n"
            + "GM_registerMenuCommand('Kept', () => {}, { accessKey: 'k' });\n"
            + "window.close();\n"
            + "GM_setValue('seen', document.title); GM_info.scriptHandler + ' on ' + document.title"
        let (run, record, runStatus, batchStatus) = try await Self.both(
            url: server.url("/"), ["-e", script, "--engine", engine, "--library", workspace.library], in: workspace)
        #expect(runStatus == 0)
        #expect(batchStatus == 0, "\(record.serialized)")
        #expect(Self.members(run) == ["url", "title", "httpStatus", "value", "console", "dialogs", "error", "userscript"])
        #expect(Self.members(record).filter { !Self.batchMembers.contains($0) } == Self.members(run).filter { $0 != "httpStatus" })
        #expect(record["value"]?.stringValue == "PageScript on Userscript")
        #expect(record["value"] == run["value"])
        #expect(record["userscript"]?["valueWrites"] == run["userscript"]?["valueWrites"])
        for member in ["notifications", "clipboard", "menuCommands", "windowCalls"] {
            #expect(record["userscript"]?[member] == run["userscript"]?[member], "\(member)")
        }
        #expect(record["userscript"]?["notifications"] == [["text": "Done", "title": "Batch", "tag": "batch", "silent": true]])
        #expect(record["userscript"]?["clipboard"] == [["data": "<i>copied</i>", "type": "html", "mimetype": "text/html"]])
        #expect(record["userscript"]?["menuCommands"] == ["Kept"])
        #expect(record["userscript"]?["windowCalls"] == ["close"])
    }

    /// A library script whose `@require` file was never fetched does not run, in `run` as in a
    /// batch, and both name the file.
    @Test func aScriptWithAMissingRequireRunsNowhereAndTheFileIsNamed() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Needs a file</title>"])
        defer { server.stop() }
        let workspace = try Workspace()
        let missing = "http://127.0.0.1:9/never/lib.js"
        let file = workspace.folder + "/needs.user.js"
        try Data("// ==UserScript==\n// @name Needs lib\n// @require \(missing)\n// @match http://127.0.0.1/*\n// ==/UserScript==\nwindow.fromLib\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", file, "--no-fetch", "--library", workspace.library])
        #expect(imported.status == 0, "\(imported.standardError)")
        // Chosen or matched, the script is not run, and both say which file and why, with one exit status.
        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--script", "Needs lib", "--library", workspace.library])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains(missing), "\(run.standardError)")
        let json = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--script", "Needs lib", "--json", "--library", workspace.library])
        #expect(json.status == 1)
        let failure = try JSONValue(parsing: json.standardOutput)
        #expect(failure["error"]?["name"]?.stringValue == "NotRun", "\(failure.serialized)")
        #expect(failure["error"]?["message"]?.stringValue?.contains(missing) == true, "\(failure.serialized)")
        let matched = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--library", workspace.library])
        #expect(matched.status == 1, "\(matched.standardError)")
        #expect(matched.standardError.contains("not run: Needs lib cannot run without its files: line 3: @require \(missing)"),
                "\(matched.standardError)")
        let batch = try await PageScriptBinary.outcome(of: ["batch", try workspace.list([server.url("/")]), "--script", "Needs lib",
                                                            "--library", workspace.library])
        #expect(batch.status == 1, "\(batch.standardError)")
        let record = try JSONValue(parsing: String(batch.standardOutput.split(separator: "\n").first ?? ""))
        #expect(record["status"]?.stringValue == "failed", "\(record.serialized)")
        #expect(record["error"]?["message"]?.stringValue?.contains(missing) == true, "\(record.serialized)")
        #expect(record["value"] == .null)
        // The library says so too: the script is blocked, not running by itself.
        let list = try await PageScriptBinary.outcome(of: ["scripts", "list", "--library", workspace.library])
        #expect(list.standardOutput.contains("\tblocked: line 3: @require \(missing) is missing"), "\(list.standardOutput)")
        #expect(list.standardOutput.contains("pagescript scripts supply takes it from a file"), "\(list.standardOutput)")

        // The host cannot be reached: the file is given by hand, and the script runs with it.
        let lib = workspace.folder + "/lib.js"
        try Data("window.fromLib = 'supplied by hand';\n".utf8).write(to: URL(fileURLWithPath: lib))
        let wrong = try await PageScriptBinary.outcome(of: ["scripts", "supply", "Needs lib", "http://127.0.0.1:9/other.js", lib,
                                                            "--library", workspace.library])
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("declares \(missing)"), "\(wrong.standardError)")
        let supplied = try await PageScriptBinary.outcome(of: ["scripts", "supply", "Needs lib", missing, lib, "--library", workspace.library])
        #expect(supplied.status == 0, "\(supplied.standardError)")
        #expect(supplied.standardOutput.contains("supplied\t"), "\(supplied.standardOutput)")
        let again = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--script", "Needs lib", "--library", workspace.library])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("supplied by hand"), "\(again.standardOutput)")
        let listed = try await PageScriptBinary.outcome(of: ["scripts", "list", "--library", workspace.library])
        #expect(!listed.standardOutput.contains("blocked"), "\(listed.standardOutput)")
    }

    @Test(arguments: engines)
    func aTimedOutRunAndItsBatchRecordKeepWhatTheScriptLogged(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Waiting</title>"])
        defer { server.stop() }
        let workspace = try Workspace()
        let script = "console.log('before'); alert('asked'); await new Promise(() => {})"
        let (run, record, runStatus, batchStatus) = try await Self.both(
            url: server.url("/"), ["-e", script, "--timeout", "6", "--engine", engine], runOnly: ["--load-timeout", "60"], batchOnly: ["--retries", "0"], in: workspace)
        #expect(runStatus == 4)
        #expect(batchStatus == 1)
        #expect(record["status"]?.stringValue == "timeout")
        #expect(Self.members(record).filter { !Self.batchMembers.contains($0) } == Self.members(run).filter { $0 != "httpStatus" })
        for report in [run, record] {
            #expect(report["url"]?.stringValue == server.url("/"))
            #expect(report["console"]?.arrayValue?.first?["message"]?.stringValue == "before")
            #expect(report["dialogs"]?.arrayValue?.first?["message"]?.stringValue == "asked")
            #expect(report["error"]?["name"]?.stringValue == "Timeout")
        }
    }

    /// The library's scripts: one at `document-start` that looks whether the page's own first
    /// script ran, one at `document-end`. On Chromium the first runs before the page's script in
    /// a batch as in a run; WebKit's driver has no such hook, and both say it ran at document-end.
    @Test(arguments: engines)
    func theLibrarysRunAndItsBatchRecordCarryTheSameMembersAndRunDocumentStartFirst(engine: String) async throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><html><head><script>window.pageRan = true;</script><title>Library</title></head><body><p>text</p></body></html>",
        ])
        defer { server.stop() }
        let workspace = try Workspace()
        let scripts = [
            ("Early", "document-start", "typeof window.pageRan === 'undefined' ? 'before the page' : 'after the page'"),
            ("Late", "document-end", "console.log('late'); document.title"),
        ]
        for (name, runAt, body) in scripts {
            let made = try await PageScriptBinary.outcome(of: [
                "scripts", "new", name, "--match", server.url("/"), "--run-at", runAt, "-e", body, "--library", workspace.library,
            ])
            #expect(made.status == 0, "\(made.standardError)")
        }
        let (run, record, runStatus, batchStatus) = try await Self.both(
            url: server.url("/"), ["--library", workspace.library, "--engine", engine], in: workspace)
        #expect(runStatus == 0)
        #expect(batchStatus == 0, "\(record.serialized)")
        #expect(Self.members(run) == ["url", "title", "httpStatus", "scripts", "error"])
        #expect(Self.members(record).filter { !Self.batchMembers.contains($0) } == Self.members(run).filter { $0 != "httpStatus" })
        for member in Self.members(run) {
            #expect(record[member] == run[member], "\(member): \(record[member].map(\.serialized) ?? "absent") in the record")
        }
        let early = record["scripts"]?.arrayValue?.first
        #expect(early?["name"]?.stringValue == "Early")
        if engine == "chromium" {
            #expect(early?["value"]?.stringValue == "before the page")
        } else {
            #expect(early?["value"]?.stringValue == "after the page")
            #expect(early?["userscript"]?["ranAt"]?.stringValue == "document-end")
        }
        #expect(record["scripts"]?.arrayValue?.last?["value"]?.stringValue == "Library")
    }
}
