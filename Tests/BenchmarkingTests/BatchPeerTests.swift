import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The batch throughput peers: their Python scripts compile, the shared runner turns a script's
/// answer into seconds per page and values by page and refuses one that skipped pages, and, where
/// the bench's environment has Playwright, the Playwright peer runs a few loopback pages two at once.
struct BatchPeerTests {
    @Test(arguments: [("playwright", PlaywrightBatchPeer.script), ("selenium", SeleniumBatchPeer.script)])
    func thePeerScriptCompiles(name: String, source: String) throws {
        let python = try #require(ExecutableLocator.find("python3"))
        let folder = try ScratchFolder.make("pagescript-batch-peer-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(name).py").path(percentEncoded: false)
        try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        let run = try MeasuredProcess.run(executable: python, arguments: ["-m", "py_compile", path], timeout: 60, label: "py_compile")
        #expect(run.exitCode == 0, "\(run.output)")
    }

    /// A script that answers like a peer, without a browser: it reports `seconds` for as many
    /// pages as it read, less `missing`, echoes its configuration's `jobs` as the seconds, and
    /// gives each page its place in the list and its length as its value.
    private static let answeringScript = """
        import json, sys
        urls = [line for line in open(sys.argv[1]).read().split("\\n") if line]
        configuration = json.loads(sys.argv[2])
        values = {url: {"place": place, "length": len(url) / 2} for place, url in enumerate(urls)}
        with open(sys.argv[3], "w") as output:
            json.dump({"seconds": configuration["jobs"], "pages": len(urls) - configuration["missing"],
                       "values": json.dumps(values)}, output)
        """

    private struct AnsweringConfiguration: Encodable {
        var jobs: Int
        var missing: Int
    }

    /// The pages the answering peer is given.
    private static let urls = (0..<4).map { "http://127.0.0.1:9/page/\($0)" }

    /// Runs ``answeringScript`` over ``urls`` through the shared runner.
    private static func runAnsweringPeer(jobs: Int, missing: Int) throws -> BatchThroughputRun {
        let python = try #require(ExecutableLocator.find("python3"))
        let folder = try ScratchFolder.make("pagescript-batch-peer-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try BatchPeerScript.run(
            source: answeringScript, path: folder.appendingPathComponent("peer.py").path(percentEncoded: false), python: python,
            label: "answering peer", urls: urls,
            configuration: AnsweringConfiguration(jobs: jobs, missing: missing), environment: nil)
    }

    @Test
    func theRunnerDividesTheScriptsWindowByItsPages() throws {
        #expect(try Self.runAnsweringPeer(jobs: 6, missing: 0).secondsPerPage == 1.5)
    }

    @Test
    func theRunnerReadsEachPagesValueByItsURL() throws {
        let run = try Self.runAnsweringPeer(jobs: 1, missing: 0)
        #expect(run.values.count == Self.urls.count)
        #expect(run.values[Self.urls[2]] == ["place": 2, "length": 12.5])
    }

    @Test
    func aScriptThatReadFewerPagesThanItWasGivenFails() throws {
        do {
            _ = try Self.runAnsweringPeer(jobs: 1, missing: 1)
            Issue.record("a run that skipped a page was accepted")
        } catch let BenchmarkError.processFailed(command, status, _) {
            #expect(command == "answering peer")
            #expect(status.contains("3 of 4"))
        }
    }

    @Test(.enabled(if: BatchPeerTests.benchHasPlaywright, "the bench's environment has no Playwright here (run `pagescript bench` once)"))
    func playwrightReadsLoopbackPagesTwoAtOnceOnTheSystemChromium() throws {
        let folder = try ScratchFolder.make("pagescript-batch-peer-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = try BatchBenchmark.startSite()
        defer { pages.site.stop() }
        let peer = PlaywrightBatchPeer(playwright: try PlaywrightPeer.prepare(python: PlaywrightPeerTests.benchPython, folder: folder) { _ in })
        #expect(peer.name(jobs: 2).hasSuffix("2 pages at once"))
        #expect(!peer.supports(.webkit))
        let urls = Array(pages.urls.prefix(5))
        let run = try peer.run(BatchBenchmark.expression, engine: .chromium, urls: urls, jobs: 2, display: nil)
        #expect(run.secondsPerPage > 0)
        #expect(run.values[urls[3]] == .string("Bench /page/3"))
    }

    /// Whether the bench's virtual environment already holds Playwright, so that the test installs nothing.
    static var benchHasPlaywright: Bool {
        let library = URL(fileURLWithPath: PlaywrightPeerTests.benchPython).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: library.path(percentEncoded: false))) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: library.path(percentEncoded: false) + "/\($0)/site-packages/playwright") }
    }
}
