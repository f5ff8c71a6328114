import Foundation
#if canImport(FoundationNetworking)
// Reading an http:// URL with Foundation needs it on Linux; PageScript itself never does.
import FoundationNetworking
#endif
import Testing
import TestSupport
import UserScripts
@testable import Benchmarking

/// The browse rows' pure parts: the site's pages lead on to the next one, and the measured
/// script matches those pages and no other site's.
struct BrowseLatencyBenchmarkTests {
    @Test func eachPageGoesOnToTheNextAndTheScriptMatchesOnlyTheSite() throws {
        let site = try BrowseLatencyBenchmark.startSite()
        defer { site.stop() }
        let page = try String(contentsOf: try #require(URL(string: site.url("/page/3"))), encoding: .utf8)
        #expect(page.contains("<title>Browse bench 3</title>"), "\(page)")
        #expect(page.contains("location.href = '/page/4'"), "\(page)")

        let script = UserScript(text: BrowseLatencyBenchmark.latencyScript(matching: site), fallbackName: "latency")
        #expect(script.interpretation.runMode.runAt == .documentIdle)
        let matcher = ScriptMatcher([(id: ScriptID("latency"), rules: script.siteRules)])
        #expect(matcher.matches(try PageURL(site.url("/page/3"))).count == 1)
        #expect(matcher.matches(try PageURL("http://127.0.0.1:\(site.port == 1 ? 2 : 1)/page/3")).isEmpty)
        #expect(matcher.matches(try PageURL("https://example.com/page/3")).isEmpty)
    }
}
