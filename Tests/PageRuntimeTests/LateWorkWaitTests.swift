import Engines
import Foundation
import PageRuntime
import SystemSupport
import TestSupport
import Testing

/// The wait `browse` keeps in a document whose scripts ran, for their later work
/// (`PageSession.serveLateUserScriptWork(waitingAtMost:)`), when the page goes on by itself: it
/// ends as the page being left, and is never sent again into the next document. Firefox now and
/// then loses the reply to a call settled as the page is left, and the commit ends the call as
/// `Document was unloaded`; a wait sent again from there found no runtime in the next document,
/// installed one and waited there, so browse missed a next page that went on before that wait ended.
@Suite(.serialized)
struct LateWorkWaitTests {
    static func site() throws -> LoopbackServer {
        try LoopbackServer(pages: [
            "/": "<!doctype html><title>Start</title><p>start</p>",
            "/next": "<!doctype html><title>Next</title><p>next</p>",
        ])
    }

    @Test(arguments: PageFixtures.everyEngine)
    func aWaitThePagesNavigationCutsOffEndsAsThePageLeft(engine: Engine) async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            // Several rounds: on Firefox the reply is lost in some of them only.
            for round in 0..<6 {
                _ = try await page.open(server.url("/"))
                let started = try await page.run(script: "setTimeout(function () { location.href = '/next'; }, 300); 'going'")
                #expect(started.value == .string("going"))
                // Far longer than the page stays: a wait that went on in the next document (which
                // never leaves) would end only with it, as not leaving.
                let late = try await page.serveLateUserScriptWork(waitingAtMost: .seconds(5))
                #expect(late.pageIsLeaving, "round \(round): \(late)")
            }
        }
    }
}
