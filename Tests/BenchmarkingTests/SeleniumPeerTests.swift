import Engines
import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// Selenium for Python as the bench runs it on Firefox, where the bench's environment has it: the
/// geckodriver and Firefox PageScript finds, passed explicitly (the peer scripts replace Selenium
/// Manager with a refusal, so a lookup would fail the run), for warm round trips on one session
/// and for the batch peer's thread pool, a geckodriver per thread.
@Suite(.serialized)
struct SeleniumPeerTests {
    /// Whether the bench's virtual environment already holds Selenium, so that the tests install nothing.
    static var benchHasSelenium: Bool {
        let library = SeleniumPeer.defaultFolder(environment: ProcessInfo.processInfo.environment).appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: library.path(percentEncoded: false))) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: library.path(percentEncoded: false) + "/\($0)/site-packages/selenium") }
    }

    private static func selenium() throws -> SeleniumPeer {
        try SeleniumPeer.prepare(in: SeleniumPeer.defaultFolder(environment: ProcessInfo.processInfo.environment)) { _ in }
    }

    @Test(.enabled(if: SeleniumPeerTests.benchHasSelenium, "the bench's environment has no Selenium here (run `pagescript bench` once)"))
    func seleniumTimesWarmRoundTripsOnFirefox() throws {
        let pages = try BatchBenchmark.startSite()
        defer { pages.site.stop() }
        let warm = try Self.selenium().warm(engine: .firefox, pageURL: pages.urls[0], script: "return 1", repetitions: 3, display: nil)
        #expect(warm.samples.count == 3)
        #expect(warm.samples.allSatisfy { $0 > 0 })
    }

    @Test(.enabled(if: SeleniumPeerTests.benchHasSelenium, "the bench's environment has no Selenium here (run `pagescript bench` once)"))
    func theBatchPeerReadsLoopbackPagesWithAGeckodriverPerThread() throws {
        let pages = try BatchBenchmark.startSite()
        defer { pages.site.stop() }
        let peer = SeleniumBatchPeer(selenium: try Self.selenium())
        #expect(peer.supports(.firefox))
        let urls = Array(pages.urls.prefix(4))
        let run = try peer.run(BatchBenchmark.expression, engine: .firefox, urls: urls, jobs: 2, display: nil)
        #expect(run.secondsPerPage > 0)
        #expect(run.values[urls[3]] == .string("Bench /page/3"))
    }
}
