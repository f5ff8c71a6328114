import Foundation
import SystemSupport
import TestSupport
import Testing

/// browse runs a matching script in every document the browser shows, also in pages the browser
/// leaves by itself soon after their load, one after the other, on every engine (on Firefox, the
/// one browse test of the follower). That a wait browse keeps in a document is never carried into
/// the next one, which made browse miss pages that went on 0.3 s after their load on Firefox, is
/// LateWorkWaitTests' (a time short enough to show it here is too short for a loaded machine).
@Suite(.serialized)
struct BrowseEveryDocumentTests {
    /// Pages `/page/0` to `/page/<last>`, each going on to the next a second after its load.
    static let last = 4

    @Test(arguments: ["webkit", "chromium", "firefox"])
    func pagesThatGoOnByThemselvesEachRunTheScript(engine: String) throws {
        let server = try LoopbackServer { request in
            let number = Int(request.target.split(separator: "/").last ?? "") ?? 0
            let next = number < Self.last
                ? "<script>addEventListener('load', function () { setTimeout(function () { location.href = '/page/\(number + 1)'; }, 1000); });</script>"
                : ""
            return .page("<!doctype html><title>Page \(number)</title><p>page \(number)</p>" + next)
        }
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-every-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        #expect(try PageScriptBinary.run(["scripts", "new", "Title", "--match", "\(base)/page/*", "-e", "document.title",
                                          "--library", library]).status == 0)
        let browse = try BrowseCommandTests.BrowseSession([server.url("/page/0"), "--engine", engine, "--library", library], seconds: 60) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Page \(Self.last)\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        for number in 0...Self.last {
            #expect(lines.filter { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Page \(number)\"") }.count == 1, "page \(number): \(lines)")
        }
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }
}
