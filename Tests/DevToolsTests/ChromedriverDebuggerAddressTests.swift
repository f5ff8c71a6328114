import DevTools
import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// A DevTools connection beside a chromedriver session, through the `debuggerAddress` that
/// chromedriver reports: both drive the same page.
@Suite(.serialized)
struct ChromedriverDebuggerAddressTests {
    @Test func bothProtocolsSeeTheSamePage() async throws {
        let site = try LoopbackServer(pages: ["/shared": "<title>shared</title>"])
        defer { site.stop() }
        let engine = try await BrowserEngine.start(.chromium)
        let session = try await engine.newSession(timeout: 60)
        do {
            try await session.navigate(to: site.url("/shared"))
            let address = try #require(session.capabilities["goog:chromeOptions"]?["debuggerAddress"]?.stringValue)
            let connection = try await DevToolsConnection.connect(to: try DevToolsEndpoint(parsing: address))
            let target = try #require(try await connection.browser.targets().first { $0.type == "page" && $0.url == site.url("/shared") })
            let page = try await connection.browser.attach(toTarget: target.targetID)

            _ = try await session.executeScript("window.fromWebDriver = 42")
            #expect(try await page.evaluate("window.fromWebDriver").value == 42)
            _ = try await page.evaluate("document.title = 'set over DevTools'")
            #expect(try await session.title() == "set over DevTools")

            await connection.close()
            // The WebDriver session is unaffected by the DevTools connection's end.
            #expect(try await session.executeScript("return document.title") == "set over DevTools")
        } catch {
            Issue.record("\(error)")
        }
        await session.delete()
        await engine.stop()
        #expect(engine.processes.allSatisfy { !$0.isRunning })
    }
}
