@testable import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import WebDriver

/// PageScript's own MiniBrowser for WebKitWebDriver, on the real engine.
@Suite(.serialized)
struct WebKitBrowserTests {
    /// The driver reaches PageScript's browser through the relay, and the session's scripts go
    /// to the browser's automation session from PageScript: values, errors and their messages
    /// are the driver's own (its Execute Script sent raw gives the same); a dialog the page opened
    /// leaves the script to the driver, which dismisses it and says so, as it does; after a
    /// reply that came when PageScript had stopped waiting, the driver and the channel go on; a
    /// browser that dies ends the session with an error instead of a hang.
    @Test func theSessionsScriptsGoToTheBrowserPastTheDriver() async throws {
        try await Self.withWebKit { running in
            let browser = try #require(running.webKitBrowser, "WebKitWebDriver names the MiniBrowser it would start")
            #expect(running.processes.contains { $0 === browser.process })
            guard case .relayed = browser.link else {
                Issue.record("the browser is not behind the relay")
                return
            }
            let session = try await running.newSession(timeout: 30)
            #expect(session.executesScriptsDirectly)
            func pastTheDriver(_ script: String, arguments: [JSONValue] = [], timeout: Double? = nil) async throws(WebDriverError) -> JSONValue? {
                try await session.executeScriptPastTheDriver(serializedScript: JSONValue.string(script).serialized, arguments: arguments, timeout: timeout)
            }
            #expect(try await pastTheDriver("return [6 * 7, arguments[0], document.readyState]", arguments: ["é\n\"x\""])
                == [42, "é\n\"x\"", "complete"])
            for failing in ["throw new Error('boom')", "return (", "return undefinedName.x"] {
                let direct = await #expect(throws: WebDriverError.self) { _ = try await pastTheDriver(failing) }
                let throughDriver = await #expect(throws: WebDriverError.self) { _ = try await session.executeScript(failing) }
                #expect(direct == throughDriver, "\(failing)")
            }

            _ = try await pastTheDriver("setTimeout(() => alert('from the page'), 0)")
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(try await pastTheDriver("return 1", timeout: 5) == nil, "the channel leaves a dialog to the driver")
            let dialog = await #expect(throws: WebDriverError.self) { _ = try await session.executeScript("return 1", timeout: 5) }
            #expect(dialog?.code == .unexpectedAlertOpen, "\(String(describing: dialog))")
            #expect(try await pastTheDriver("return 2") == 2, "the driver dismissed the dialog")

            let late = await #expect(throws: WebDriverError.self) {
                _ = try await pastTheDriver("const until = Date.now() + 1000; while (Date.now() < until) {} return 3", timeout: 0.3)
            }
            #expect(late == .requestTimedOut(command: "execute script", seconds: 0.3))
            try await Task.sleep(nanoseconds: 1_000_000_000)
            #expect(try await session.title(timeout: 5) == "", "the driver still answers after the late reply")
            #expect(try await pastTheDriver("return 4") == 4)

            kill(browser.process.processID, SIGKILL)
            // The channel is gone with the browser (it declines or fails), and the driver says so.
            #expect((try? await pastTheDriver("return 1", timeout: 20)) ?? nil == nil)
            await #expect(throws: WebDriverError.self) {
                _ = try await session.executeScript("return 1", timeout: 20)
            }
            await running.stop()
            #expect(running.processes.allSatisfy { !$0.isRunning })
        }
    }

    /// Asked for a plain link (the bench's baseline), and where the system lets PageScript reach
    /// its children's sockets (this machine does), the driver connects straight to the browser,
    /// every TCP socket of both ends has Nagle's algorithm off, the connection between them
    /// included, and scripts go through the driver.
    @Test func aPlainLinkConnectsTheDriverDirectlyWithNoDelayOnBothEnds() async throws {
        try await Self.withWebKit(LaunchOptions(scriptsPastTheDriver: false)) { running in
            let browser = try #require(running.webKitBrowser, "WebKitWebDriver names the MiniBrowser it would start")
            guard case .direct = browser.link else {
                Issue.record("the direct link was not chosen although this machine allows it: \(ProcessSockets.canReach(browser.process.processID))")
                return
            }
            let session = try await running.newSession(timeout: 30)
            #expect(!session.executesScriptsDirectly)
            #expect(try await session.executeScript("return 6 * 7") == 42)
            let driver = try #require(running.driverProcess)
            let browserSockets = try ProcessSockets.noDelaySettings(inProcess: browser.process.processID)
            let driverSockets = try ProcessSockets.noDelaySettings(inProcess: driver.processID)
            // The browser's automation server and the connection it accepted; the driver's HTTP
            // server, PageScript's connection to it, and its connection to the browser.
            #expect(browserSockets.count >= 2 && browserSockets.allSatisfy { $0 }, "\(browserSockets)")
            #expect(driverSockets.count >= 3 && driverSockets.allSatisfy { $0 }, "\(driverSockets)")
            await session.delete()
        }
    }

    /// Runs `body` on a WebKit engine started with `options`, and stops the engine afterwards,
    /// also when `body` throws: a failing test leaves no browser behind.
    private static func withWebKit(_ options: LaunchOptions = LaunchOptions(), _ body: (BrowserEngine) async throws -> Void) async throws {
        let running = try await BrowserEngine.start(.webkit, options: options)
        do {
            try await body(running)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    /// The MiniBrowser path is read out of the driver's strings: only an absolute path ending in
    /// `/MiniBrowser`, ending at a NUL and naming an executable file counts, wherever the driver's
    /// reading in pieces cuts it; the installed driver names one that exists.
    @Test func theDriverNamesItsMiniBrowser() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "pagescript-minibrowser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notExecutable = folder.appending(path: "plain/MiniBrowser").path
        let executable = folder.appending(path: "bin/MiniBrowser").path
        for path in [notExecutable, executable] {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
        // Strings as a binary holds them: the wrong ones first, the right one across the 64 KB
        // boundary where the reading is cut.
        var bytes = Array("\u{7F}ELF".utf8) + [0] + Array("\(executable)-not".utf8) + [0] + Array("\(notExecutable)".utf8) + [0]
        bytes += Array(repeating: UInt8(ascii: "x"), count: 64 * 1024 - 5 - bytes.count) + [0]
        bytes += Array(executable.utf8) + [0] + Array("tail".utf8)
        let driver = folder.appending(path: "driver").path
        #expect(FileManager.default.createFile(atPath: driver, contents: Data(bytes)))
        #expect(EngineInventory.compiledInMiniBrowser(of: driver) == executable)

        #expect(FileManager.default.createFile(atPath: driver, contents: Data(Array(executable.utf8))))
        #expect(EngineInventory.compiledInMiniBrowser(of: driver) == nil, "a path without its NUL is not a string of the binary")

        let installed = try #require(ExecutableLocator.find("WebKitWebDriver").flatMap(EngineInventory.compiledInMiniBrowser(of:)))
        #expect(installed.hasSuffix("/MiniBrowser") && FileManager.default.isExecutableFile(atPath: installed))
    }
}
