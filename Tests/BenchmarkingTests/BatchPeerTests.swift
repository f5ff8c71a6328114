import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The batch throughput peers: their Python scripts compile, the shared runner turns a script's
/// answer into seconds per page and refuses one that skipped pages, and, where the bench's
/// environment has Playwright, the Playwright peer runs a few loopback pages two at once.
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
    /// pages as it read, less `missing`, and echoes its configuration's `jobs` as the seconds.
    private static let answeringScript = """
        import json, sys
        urls = [line for line in open(sys.argv[1]).read().split("\\n") if line]
        configuration = json.loads(sys.argv[2])
        with open(sys.argv[3], "w") as output:
            json.dump({"seconds": configuration["jobs"], "pages": len(urls) - configuration["missing"]}, output)
        """

    private struct AnsweringConfiguration: Encodable {
        var jobs: Int
        var missing: Int
    }

    /// Runs ``answeringScript`` over four pages through the shared runner.
    private static func runAnsweringPeer(jobs: Int, missing: Int) throws -> Double {
        let python = try #require(ExecutableLocator.find("python3"))
        let folder = try ScratchFolder.make("pagescript-batch-peer-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try BatchPeerScript.secondsPerPage(
            source: answeringScript, path: folder.appendingPathComponent("peer.py").path(percentEncoded: false), python: python,
            label: "answering peer", urls: (0..<4).map { "http://127.0.0.1:9/page/\($0)" },
            configuration: AnsweringConfiguration(jobs: jobs, missing: missing), environment: nil)
    }

    @Test
    func theRunnerDividesTheScriptsWindowByItsPages() throws {
        #expect(try Self.runAnsweringPeer(jobs: 6, missing: 0) == 1.5)
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
        let perPage = try peer.secondsPerPage(engine: .chromium, urls: Array(pages.urls.prefix(5)), jobs: 2, display: nil)
        #expect(perPage > 0)
    }

    /// Whether the bench's virtual environment already holds Playwright, so that the test installs nothing.
    static var benchHasPlaywright: Bool {
        let library = URL(fileURLWithPath: PlaywrightPeerTests.benchPython).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: library.path(percentEncoded: false))) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: library.path(percentEncoded: false) + "/\($0)/site-packages/playwright") }
    }
}
