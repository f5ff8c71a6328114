import Foundation
import SystemSupport
import Testing
import TestSupport
@testable import WebDriver

/// PageScript's own MiniBrowser for WebKitWebDriver, on the real engine.
@Suite(.serialized)
struct WebKitBrowserTests {
    /// Where the system lets PageScript reach its children's sockets (this machine does), the
    /// driver connects straight to the browser, and every TCP socket of both ends has Nagle's
    /// algorithm off, the connection between them included; a browser that dies ends the session
    /// with an error instead of a hang.
    @Test func theDriverReachesTheBrowserDirectlyWithNoDelayOnBothEnds() async throws {
        let running = try await BrowserEngine.start(.webkit)
        let browser = try #require(running.webKitBrowser, "WebKitWebDriver names the MiniBrowser it would start")
        #expect(running.processes.contains { $0 === browser.process })
        guard case .direct = browser.link else {
            Issue.record("the direct link was not chosen although this machine allows it: \(ProcessSockets.canReach(browser.process.processID))")
            await running.stop()
            return
        }
        let session = try await running.newSession(timeout: 30)
        #expect(try await session.executeScript("return 6 * 7") == 42)
        let driver = try #require(running.driverProcess)
        let browserSockets = try ProcessSockets.noDelaySettings(inProcess: browser.process.processID)
        let driverSockets = try ProcessSockets.noDelaySettings(inProcess: driver.processID)
        // The browser's automation server and the connection it accepted; the driver's HTTP
        // server, PageScript's connection to it, and its connection to the browser.
        #expect(browserSockets.count >= 2 && browserSockets.allSatisfy { $0 }, "\(browserSockets)")
        #expect(driverSockets.count >= 3 && driverSockets.allSatisfy { $0 }, "\(driverSockets)")

        kill(browser.process.processID, SIGKILL)
        await #expect(throws: WebDriverError.self) {
            _ = try await session.executeScript("return 1", timeout: 20)
        }
        await running.stop()
        #expect(running.processes.allSatisfy { !$0.isRunning })
    }
}
