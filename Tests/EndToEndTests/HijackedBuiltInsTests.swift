import Foundation
import SystemSupport
import TestSupport
import Testing

/// A page that replaces `Array.prototype.map`: Chromium runs scripts on it as on any page; WebKit's
/// driver uses the page's own `map` for every call, so there PageScript says why nothing can run
/// and what to use instead, rather than an opaque driver error.
struct HijackedBuiltInsTests {
    static let page = "<!doctype html><title>Hijack</title><script>Array.prototype.map = function () { return 'HIJACKED'; };</script>"

    @Test func chromiumRunsOnAPageThatReplacedArrayMap() async throws {
        let server = try LoopbackServer(pages: ["/": Self.page])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "[1, 2, 3].length", "--engine", "chromium"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "3\n")
    }

    @Test func webKitSaysWhyItCannotRunThereAndWhatToUse() async throws {
        let server = try LoopbackServer(pages: ["/": Self.page])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "[1, 2, 3].length", "--engine", "webkit"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("Array.prototype.map"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("use --engine chromium"), "\(outcome.standardError)")
    }
}
