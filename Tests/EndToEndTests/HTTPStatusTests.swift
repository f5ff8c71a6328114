import Foundation
import SystemSupport
import TestSupport
import Testing

/// The main document's HTTP status in `run`'s output and a batch's records, and
/// `--fail-on-http-error`: a page the server answered with an error status is said to be one,
/// on both engines.
@Suite(.serialized)
struct HTTPStatusTests {
    let server: LoopbackServer

    init() throws {
        let flakyAnswers = AnswerCount()
        server = try LoopbackServer { request in
            let page = Array("<!doctype html><title>Status page</title><p>\(request.target)".utf8)
            switch request.target {
            case "/flaky":
                // A server error the first time, the page afterwards.
                let answered = flakyAnswers.next()
                return LoopbackResponse(status: answered == 1 ? 503 : 200, headers: [("Content-Type", "text/html")], body: page)
            case "/missing": return LoopbackResponse(status: 404, headers: [("Content-Type", "text/html")], body: page)
            case "/broken": return LoopbackResponse(status: 500, headers: [("Content-Type", "text/html")], body: page)
            case "/moved": return LoopbackResponse(redirectTo: "/landed")
            default: return LoopbackResponse(status: 200, headers: [("Content-Type", "text/html")], body: page)
            }
        }
    }

    /// A file came from no HTTP response: no status, on every engine (Chromium's Navigation
    /// Timing says 200 for one).
    @Test(arguments: ["webkit", "chromium", "firefox"])
    func aFileHasNoHTTPStatus(engine: String) async throws {
        defer { server.stop() }
        let folder = try TemporaryDirectory("status")
        let page = folder.path + "/page.html"
        try "<!doctype html><title>File</title>".write(toFile: page, atomically: true, encoding: .utf8)
        let run = try await PageScriptBinary.outcome(of: ["run", page, "-e", "document.title", "--engine", engine, "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try JSONValue(parsing: run.standardOutput)
        #expect(object["httpStatus"] == .null, "\(run.standardOutput)")
        #expect(object["value"] == .string("File"), "\(run.standardOutput)")
    }

    @Test func runSaysTheStatusOfAnErrorPageAndStillRunsTheScript() async throws {
        defer { server.stop() }
        let text = try await PageScriptBinary.outcome(of: ["run", server.url("/missing"), "-e", "document.title", "--engine", "chromium"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput == "\"Status page\"\n")
        #expect(text.standardError.contains("<\(server.url("/missing"))> (HTTP 404)"), "\(text.standardError)")

        let fine = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "-e", "1", "--engine", "chromium", "--json"])
        let object = try JSONValue(parsing: fine.standardOutput)
        #expect(object["httpStatus"] == .integer(200), "\(fine.standardOutput)")
        #expect(!fine.standardError.contains("HTTP"), "a page that loaded fine has no status in its line: \(fine.standardError)")

        let broken = try await PageScriptBinary.outcome(of: ["run", server.url("/broken"), "-e", "1", "--engine", "chromium", "--json"])
        #expect(try JSONValue(parsing: broken.standardOutput)["httpStatus"] == .integer(500), "\(broken.standardOutput)")
    }

    @Test func failOnHTTPErrorRunsNothingOnAnErrorPage() async throws {
        defer { server.stop() }
        let marker = "window.__ran = 1; document.title"
        let failed = try await PageScriptBinary.outcome(of: ["run", server.url("/missing"), "-e", marker, "--engine", "chromium", "--fail-on-http-error"])
        #expect(failed.status == 2, "\(failed.standardError)")
        #expect(failed.standardOutput.isEmpty)
        #expect(failed.standardError.contains("the server answered 404"), "\(failed.standardError)")

        let json = try await PageScriptBinary.outcome(of: ["run", server.url("/missing"), "-e", marker, "--engine", "chromium", "--fail-on-http-error", "--json"])
        #expect(json.status == 2)
        let object = try JSONValue(parsing: json.standardOutput)
        #expect(object["error"]?["name"]?.stringValue == "NavigationFailed", "\(json.standardOutput)")
        #expect(object["value"] == .null)

        let fine = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "-e", "document.title", "--engine", "chromium", "--fail-on-http-error"])
        #expect(fine.status == 0, "\(fine.standardError)")
        #expect(fine.standardOutput == "\"Status page\"\n")
    }

    /// WebKitGTK gives pages no `responseStatus`: the status comes from the browser's Web
    /// Inspector, the status of the document a server's redirect ended at, and an error page is
    /// refused as on Chromium.
    @Test func webKitSaysTheStatusOfTheDocumentItShows() async throws {
        defer { server.stop() }
        let missing = try await PageScriptBinary.outcome(of: ["run", server.url("/missing"), "-e", "1", "--engine", "webkit", "--json"])
        #expect(missing.status == 0, "\(missing.standardError)")
        #expect(try JSONValue(parsing: missing.standardOutput)["httpStatus"] == .integer(404), "\(missing.standardOutput)")

        let moved = try await PageScriptBinary.outcome(of: ["run", server.url("/moved"), "-e", "location.pathname", "--engine", "webkit", "--json"])
        let object = try JSONValue(parsing: moved.standardOutput)
        #expect(object["httpStatus"] == .integer(200), "\(moved.standardOutput)")
        #expect(object["value"] == .string("/landed"), "\(moved.standardOutput)")

        let marker = "window.__ran = 1; document.title"
        let failed = try await PageScriptBinary.outcome(of: ["run", server.url("/broken"), "-e", marker, "--engine", "webkit", "--fail-on-http-error"])
        #expect(failed.status == 2, "\(failed.standardError)")
        #expect(failed.standardOutput.isEmpty)
        #expect(failed.standardError.contains("the server answered 500"), "\(failed.standardError)")
    }

    /// `--retries`: a server error is tried again after a backoff, a 4xx is not; the record says
    /// how many attempts it took.
    @Test func aBatchTriesAServerErrorAgainAndSaysHowManyAttemptsItTook() async throws {
        let folder = try TemporaryDirectory("status-retries")
        defer { server.stop() }
        try folder.write(["/flaky", "/missing", "/broken"].map { server.url($0) }.joined(separator: "\n") + "\n", to: "urls.txt")
        let outcome = try await PageScriptBinary.outcome(of: ["batch", folder.file("urls.txt").path, "-e", "document.title", "--engine", "chromium",
                                                              "--retries", "2", "--ordered", "--jobs", "1"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let records = try outcome.standardOutput.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        try #require(records.count == 3, "\(outcome.standardOutput)")
        #expect(records[0]["status"]?.stringValue == "ok" && records[0]["attempts"] == .integer(2), "\(records[0].serialized)")
        #expect(records[0]["httpStatus"] == .integer(200))
        #expect(records[1]["status"]?.stringValue == "http-error" && records[1]["attempts"] == .integer(1), "\(records[1].serialized)")
        #expect(records[2]["status"]?.stringValue == "http-error" && records[2]["attempts"] == .integer(3), "\(records[2].serialized)")
        #expect(server.requests(for: "/broken") == 3)
    }

    /// A userscript's visit and the library's take the status from the page's context, as a
    /// plain script's does: an error page runs nothing and is an `http-error` record.
    @Test func userscriptAndLibraryVisitsSkipAnErrorPage() async throws {
        let folder = try TemporaryDirectory("status-library")
        defer { server.stop() }
        try folder.write([server.url("/missing"), server.url("/")].joined(separator: "\n") + "\n", to: "urls.txt")
        let base = server.url("/").dropLast()
        let userscript = "// ==UserScript==\n// @name Status\n// @match \(base)/*\n// ==/UserScript==\ndocument.title"
        let made = try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", userscript, "--library", folder.path("library")])
        #expect(made.status == 0, "\(made.standardError)")
        for script in [["-e", userscript], []] {
            let outcome = try await PageScriptBinary.outcome(of: ["batch", folder.path("urls.txt")] + script
                + ["--engine", "chromium", "--ordered", "--jobs", "1", "--library", folder.path("library")])
            let records = try outcome.standardOutput.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
            try #require(records.count == 2, "\(script): \(outcome.standardOutput)\(outcome.standardError)")
            #expect(records[0]["status"]?.stringValue == "http-error" && records[0]["httpStatus"] == .integer(404), "\(script): \(records[0].serialized)")
            #expect(records[1]["status"]?.stringValue == "ok" && records[1]["httpStatus"] == .integer(200), "\(script): \(records[1].serialized)")
        }
    }

    @Test func aBatchRecordCarriesTheStatusOnce() async throws {
        let folder = try TemporaryDirectory("status-batch")
        defer { server.stop() }
        try folder.write(server.url("/") + "\n", to: "urls.txt")
        let outcome = try await PageScriptBinary.outcome(of: ["batch", folder.file("urls.txt").path, "-e", "document.title", "--engine", "chromium"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let line = try #require(outcome.standardOutput.split(separator: "\n").first.map(String.init))
        #expect(line.components(separatedBy: "\"httpStatus\"").count == 2, "one httpStatus member: \(line)")
        #expect(try JSONValue(parsing: line)["httpStatus"] == .integer(200), "\(line)")
    }
}

/// How many times the server answered, counted across its connections' threads.
private final class AnswerCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}
