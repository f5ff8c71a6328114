import Engines
import Foundation
import PageRuntime
import SystemSupport
import Testing

/// `run`'s entry point on real engines, without the binary: a script's value with the page it
/// came from, the screenshot saved where asked, and a timeout named as the user gave it.
@Suite(.serialized) struct PageRunTests {
    @Test(arguments: PageFixtures.engines)
    func aScriptsValueComesWithItsPageAndTheScreenshotIsSaved(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Run here</title><p>Hi</p>"])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-pagerun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = RunRequest(engine: .local(engine), address: server.url("/"), script: .code("document.title", mode: .console), timeout: 30)
        request.screenshot = try ScreenshotRequest(path: folder.appendingPathComponent("page.png").path, engine: .local(engine))
        let report = try await PageRun.perform(request)
        guard case let .script(result, screenshot) = report else {
            Issue.record("not one script's report: \(report)")
            return
        }
        #expect(result.value == .string("Run here"))
        #expect(result.context.url == server.url("/"))
        #expect(report.ending == .succeeded)
        let png = try Data(contentsOf: URL(fileURLWithPath: try #require(screenshot)))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aScriptThatNeverReturnsTimesOutWithTheUsersTimeout() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Slow</title>"])
        defer { server.stop() }
        var request = RunRequest(engine: .local(.webkit), address: server.url("/"), script: .code("new Promise(() => {})", mode: .console),
                                 timeout: 2)
        // Loading has its own generous budget, so a loaded machine cannot turn this into a load timeout.
        request.loadTimeout = 60
        do {
            _ = try await PageRun.perform(request)
            Issue.record("a script that never returns came back")
        } catch {
            guard case let .injection(.timedOut(seconds, _)) = error else {
                Issue.record("not a timeout: \(error)")
                return
            }
            #expect(seconds == 2)
        }
    }
}
