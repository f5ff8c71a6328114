import Engines
import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The real-page rows' correctness check: values compared page by page whatever their members'
/// order, a missing or different value named; a batch's records read into values; and
/// PageScript's batch and the bare floor reading strict-CSP pages on Chromium and Firefox (each
/// through the session source `pagescript batch` takes for it) with the pages' inline code blocked.
struct RealPageBenchmarkTests {
    static let urls = ["http://127.0.0.1:9/a.html", "http://127.0.0.1:9/b.html", "http://127.0.0.1:9/c.html"]

    static let reference: [String: JSONValue] = [
        urls[0]: ["title": "A", "heading": "A¶", "sections": 3, "links": 40],
        urls[1]: ["title": "B", "heading": "", "sections": 0, "links": 2],
        urls[2]: ["title": "C", "heading": "C¶", "sections": 1, "links": 7],
    ]

    @Test func theExpressionIsOneLineThatSeleniumCanReturn() {
        #expect(!RealPageBenchmark.expression.contains("\n"))
        #expect(RealPageBenchmark.expression.hasPrefix("({"))
        #expect(RealPageBenchmark.expression.hasSuffix("})"))
    }

    @Test func valuesWhoseMembersComeInAnotherOrderAgree() {
        var values = Self.reference
        values[Self.urls[0]] = ["links": 40, "sections": 3, "heading": "A¶", "title": "A"]
        #expect(RealPageBenchmark.disagreement(values, with: Self.reference, urls: Self.urls) == nil)
    }

    @Test func aDifferentValueIsNamedWithItsPage() throws {
        var values = Self.reference
        values[Self.urls[2]] = ["title": "C", "heading": "C¶", "sections": 1, "links": 8]
        let problem = try #require(RealPageBenchmark.disagreement(values, with: Self.reference, urls: Self.urls))
        #expect(problem.hasPrefix("1 of 3 pages differ; http://127.0.0.1:9/c.html: "))
        #expect(problem.contains("\"links\":8"))
        #expect(problem.contains("where PageScript returned {\"title\":\"C\",\"heading\":\"C¶\",\"sections\":1,\"links\":7}"))
    }

    @Test func aMissingPageDisagrees() throws {
        var values = Self.reference
        values[Self.urls[1]] = nil
        let problem = try #require(RealPageBenchmark.disagreement(values, with: Self.reference, urls: Self.urls))
        #expect(problem.contains("http://127.0.0.1:9/b.html: no value"))
    }

    /// ``RealPageBenchmark/check(_:of:against:urls:)`` over ``urls``, throwing any error (a
    /// `catch` of one case of its typed error crashed the compiler).
    static func check(_ values: [String: JSONValue], of label: String, against reference: inout [String: JSONValue]?) throws {
        try RealPageBenchmark.check(BatchThroughputRun(secondsPerPage: 0.1, values: values), of: label, against: &reference, urls: urls)
    }

    @Test func theFirstRunBecomesTheReferenceOnlyWithAValueOnEveryPage() throws {
        var reference: [String: JSONValue]?
        var incomplete = Self.reference
        incomplete[Self.urls[1]] = .null
        do {
            try Self.check(incomplete, of: "first", against: &reference)
            Issue.record("a first run without a value on every page was accepted")
        } catch let BenchmarkError.processFailed(_, status, output) {
            #expect(status == "no value on 1 of 3 pages")
            #expect(output == Self.urls[1])
        }
        #expect(reference == nil)

        try Self.check(Self.reference, of: "first", against: &reference)
        #expect(reference == Self.reference)
        try Self.check(Self.reference, of: "second", against: &reference)

        var different = Self.reference
        different[Self.urls[0]] = ["title": "A", "heading": "A¶", "sections": 3, "links": 41]
        do {
            try Self.check(different, of: "Selenium, 4 threads", against: &reference)
            Issue.record("a run whose values differ was accepted")
        } catch let BenchmarkError.processFailed(command, status, output) {
            #expect(command == "Selenium, 4 threads")
            #expect(status.contains("differ from PageScript's"))
            #expect(output.contains(Self.urls[0]))
        }
    }

    @Test func aBatchsRecordsGiveItsWindowEachInputsValueAndItsFailures() throws {
        let folder = try ScratchFolder.make("pagescript-real-page-records")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.jsonl").path(percentEncoded: false)
        let records = """
            {"index":1,"input":"http://127.0.0.1:9/b.html","status":"ok","value":{"title":"B","links":2},"startedAt":"2026-11-28T17:38:29.000Z","durationMs":1500}
            {"index":0,"input":"http://127.0.0.1:9/a.html","status":"ok","value":"A","startedAt":"2026-11-28T17:38:28.250Z","durationMs":500}
            {"index":2,"input":"http://127.0.0.1:9/c.html","status":"timeout","value":null,"error":{"name":"Timeout","message":"no load in 30 s"},"startedAt":"2026-11-28T17:38:28.500Z","durationMs":30}

            """
        try Data(records.utf8).write(to: URL(fileURLWithPath: path))
        let read = try BatchBenchmark.Records(at: path)
        #expect(abs(read.window - 2.25) < 1e-9)
        let expected: [String: JSONValue] = [Self.urls[0]: "A", Self.urls[1]: ["title": "B", "links": 2], Self.urls[2]: .null]
        #expect(read.values == expected)
        #expect(read.failures == ["http://127.0.0.1:9/c.html: timeout (no load in 30 s)"])
    }

    /// A strict page whose inline script would rename it and whose own script adds a section once
    /// parsed, and a plain page.
    static let strictPages = [
        "one.html": """
            <!doctype html><html><head><title>One</title><script src="_static/add.js"></script>
            <script>document.title = 'inline ran';</script><style>h1 { color: red }</style></head>
            <body><h1>First<a href="#first">¶</a></h1><section><p><a href="two.html">Two</a></p></section></body></html>
            """,
        "two.html": "<!doctype html><title>Two</title><p><a href=\"one.html\">One</a></p>",
        "_static/add.js": "document.addEventListener('DOMContentLoaded', () => document.body.append(document.createElement('section')));",
    ]

    @Test(arguments: [Engine.chromium, Engine.firefox])
    func pageScriptAndTheFloorReadStrictPagesWithTheirPolicyInForce(_ engine: Engine) async throws {
        let folder = try ScratchFolder.make("pagescript-real-page-site")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in Self.strictPages {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        let run = try await BatchBenchmark.run(RealPageBenchmark.expression, engine: engine, urls: site.pageURLs, jobs: 1)
        #expect(run.values[site.url("/one.html")] == ["title": "One", "heading": "First¶", "sections": 2, "links": 2])
        #expect(run.values[site.url("/two.html")] == ["title": "Two", "heading": "", "sections": 0, "links": 1])
        #expect(run.secondsPerPage > 0)
        let floor = try await BatchBenchmark.floor(engine: engine, urls: site.pageURLs, expression: RealPageBenchmark.expression)
        #expect(RealPageBenchmark.disagreement(floor.values, with: run.values, urls: site.pageURLs) == nil)
        #expect(floor.secondsPerPage > 0)
    }
}
