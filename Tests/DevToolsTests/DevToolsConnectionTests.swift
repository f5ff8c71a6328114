import DevTools
import Foundation
import SystemSupport
import TestSupport
import Testing

/// The DevTools client against a real headless Chromium.
@Suite(.serialized)
struct DevToolsConnectionTests {
    @Test func commandsRepliesAndTypedProtocolErrors() async throws {
        try await BrowserFixture.run { browser in
            let version = try await browser.connection.browser.send("Browser.getVersion")
            #expect(version["product"]?.stringValue?.contains("Chrome") == true)

            await #expect(throws: DevToolsError.commandFailed(method: "Nope.nope", code: -32601, message: "'Nope.nope' wasn't found", data: nil)) {
                _ = try await browser.connection.browser.send("Nope.nope")
            }
            await #expect {
                _ = try await browser.connection.browser.send("Target.attachToTarget", ["targetId": 7])
            } throws: { error in
                (error as? DevToolsError)?.protocolErrorCode == -32602
            }
            await #expect {
                _ = try await browser.connection.session("no-such-session").send("Runtime.evaluate", ["expression": "1"])
            } throws: { error in
                guard case let .commandFailed(method, _, message, _)? = error as? DevToolsError else { return false }
                return method == "Runtime.evaluate" && message.contains("Session")
            }

            let page = try await browser.firstPage()
            #expect(try await page.evaluate("6 * 7").value == 42)
            #expect(try await page.evaluate("({a: [1, 'two', null]})").value == ["a": [1, "two", .null]])
            #expect(try await page.evaluate("Promise.resolve('later')").value == "later")
            let undefined = try await page.evaluate("undefined")
            #expect(undefined.type == "undefined" && undefined.value == nil)
            #expect(try await page.evaluate("-0").unserializableValue == "-0")

            do {
                _ = try await page.evaluate("let a = 1;\n  throw new RangeError('boom ' + a)")
                Issue.record("the script's exception was not reported")
            } catch let DevToolsError.exceptionThrown(method, details) {
                #expect(method == "Runtime.evaluate")
                #expect(details.lineNumber == 1)
                #expect(details.columnNumber == 2)
                #expect(details.exceptionDescription?.hasPrefix("RangeError: boom 1") == true)
            }
            await #expect {
                _ = try await page.evaluate("Promise.reject(new TypeError('refused'))")
            } throws: { error in
                guard case let .exceptionThrown(_, details)? = error as? DevToolsError else { return false }
                return details.exceptionDescription?.hasPrefix("TypeError: refused") == true
            }
        }
    }

    @Test func callFunctionOnPassesArgumentsAndThis() async throws {
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            let global = try await page.evaluate("globalThis", returnByValue: false)
            let globalID = try #require(global.objectID)
            let sum = try await page.callFunction(
                "function (a, b) { return [a.x + b, this === globalThis] }",
                arguments: [.value(["x": 40]), .value(2)], on: .object(globalID))
            #expect(sum.value == [42, true])
            let list = try await page.evaluate("[3, 1, 2]", returnByValue: false)
            let sorted = try await page.callFunction(
                "function () { return this.sort() }", on: .object(try #require(list.objectID)))
            #expect(sorted.value == [1, 2, 3])
            let passedByReference = try await page.callFunction(
                "function (list) { return list.length }", arguments: [.object(try #require(list.objectID))], on: .object(globalID))
            #expect(passedByReference.value == 3)
            await #expect {
                _ = try await page.callFunction("function () { throw new Error('inside') }", on: .object(globalID))
            } throws: { error in
                guard case let .exceptionThrown(method, details)? = error as? DevToolsError else { return false }
                return method == "Runtime.callFunctionOn" && details.exceptionDescription?.hasPrefix("Error: inside") == true
            }
        }
    }

    @Test func discoveryOverHTTPFindsTheBrowserAndItsTabs() async throws {
        try await BrowserFixture.run { browser in
            let endpoint = try DevToolsEndpoint(parsing: "127.0.0.1:\(browser.chromium.port)")
            let connection = try await DevToolsConnection.connect(to: endpoint)
            let version = try #require(connection.browserVersion)
            #expect(version.browser.contains("Chrome/"))
            #expect(version.webSocketDebuggerURL == browser.chromium.webSocketURL)
            #expect(try await connection.browser.send("Browser.getVersion")["product"]?.stringValue == version.browser)
            let listed = try await DevToolsDiscovery.targets(host: "127.0.0.1", port: browser.chromium.port)
            #expect(listed.contains { $0.type == "page" && $0.url == "about:blank" })
            await connection.close()
            await #expect(throws: DevToolsError.connectionClosed(.closedLocally)) {
                _ = try await connection.browser.send("Browser.getVersion")
            }
        }
    }

    @Test func aCommandWithoutAReplyTimesOutAndTheConnectionStaysUsable() async throws {
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            await #expect(throws: DevToolsError.timedOut(method: "Runtime.evaluate", seconds: 0.5)) {
                _ = try await page.evaluate("new Promise(() => {})", timeout: 0.5)
            }
            #expect(try await page.evaluate("'still here'").value == "still here")

            let waiting = Task { try await page.evaluate("new Promise(() => {})", timeout: 60) }
            try await Task.sleep(nanoseconds: 100_000_000)
            waiting.cancel()
            await #expect(throws: DevToolsError.cancelled(method: "Runtime.evaluate")) {
                _ = try await waiting.value
            }
        }
    }

    @Test func aNavigationReportsItsEventsInOrder() async throws {
        let site = try LoopbackServer(pages: [
            "/start": "<title>start</title><script>console.log('hello', 42, {a: 1}, null)</script>",
        ])
        defer { site.stop() }
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            let events = page.events([
                "Page.frameNavigated", "Page.lifecycleEvent", "Page.domContentEventFired", "Page.loadEventFired",
                "Page.navigatedWithinDocument", "Runtime.consoleAPICalled",
            ])
            let browserOnly = browser.connection.events(["Page.loadEventFired"], scope: .browser)
            try await page.enablePage()
            try await page.enableRuntime()
            try await page.setLifecycleEventsEnabled()
            let frameID = try await page.navigate(to: site.url("/start"))

            // Turning lifecycle events on replays the current document's (about:blank); the new
            // document's carry the loader of its navigation.
            let seen = try await within(20, "the load event") { () -> [String] in
                var seen: [String] = []
                var loaderID: String?
                for await event in events {
                    #expect(event.sessionID == page.id)
                    if let navigation = FrameNavigation(event) {
                        #expect(navigation.url == site.url("/start"))
                        #expect(navigation.frameID == frameID)
                        #expect(!navigation.isSameDocument)
                        loaderID = navigation.loaderID
                        seen.append("navigated")
                    } else if event.method == "Page.lifecycleEvent", let lifecycle = LifecycleEvent(event) {
                        guard ["init", "DOMContentLoaded", "load"].contains(lifecycle.name), lifecycle.loaderID == loaderID else { continue }
                        seen.append(lifecycle.name)
                    } else if let console = ConsoleAPICall(event) {
                        #expect(console.type == "log")
                        #expect(console.text == "hello 42 Object null")
                        seen.append("console")
                    } else if event.method == "Page.loadEventFired", loaderID != nil {
                        seen.append("loadEventFired")
                    }
                    if seen.contains("load"), seen.contains("loadEventFired") { return seen }
                }
                throw WaitTimedOut(what: "the load event (the stream ended)", seconds: 20)
            }
            #expect(seen.first == "navigated", "\(seen)")
            #expect(seen.contains("console"), "\(seen)")
            let domContentLoaded = try #require(seen.firstIndex(of: "DOMContentLoaded"))
            let load = try #require(seen.firstIndex(of: "load"))
            #expect(domContentLoaded < load, "\(seen)")

            let sameDocument = page.events(["Page.navigatedWithinDocument"])
            _ = try await page.evaluate("history.pushState({}, '', '/start#moved')")
            let moved = try #require(FrameNavigation(try await first(of: sameDocument, "the same-document navigation")))
            #expect(moved.isSameDocument)
            #expect(moved.url == site.url("/start#moved"))
            #expect(moved.isRootFrame(of: frameID))

            // The browser-scoped stream never saw the page's load event (it had a session).
            await browser.connection.close()
            var browserEvents: [DevToolsEvent] = []
            for await event in browserOnly { browserEvents.append(event) }
            #expect(browserEvents.isEmpty)
        }
    }

    @Test func aDialogBlocksThePageUntilItIsAnswered() async throws {
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            let dialogs = page.events(["Page.javascriptDialogOpening"])
            try await page.enablePage()
            let answer = Task { try await page.evaluate("prompt('Your name?', 'nobody')") }
            let dialog = try #require(JavaScriptDialog(try await first(of: dialogs, "the prompt")))
            #expect(dialog.type == "prompt")
            #expect(dialog.message == "Your name?")
            #expect(dialog.defaultPrompt == "nobody")
            try await page.handleJavaScriptDialog(accept: true, promptText: "Ada")
            #expect(try await answer.value.value == "Ada")
        }
    }

    @Test func fiftyMegabytesReturnedByValueArriveWhole() async throws {
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            let size = 50 * 1024 * 1024
            let text = try await page.evaluate("'x'.repeat(\(size))", timeout: 120)
            let value = try #require(text.value?.stringValue)
            #expect(value.utf8.count == size)
            #expect(value.utf8.allSatisfy { $0 == UInt8(ascii: "x") })
            let rows = try await page.evaluate(
                "Array.from({length: 200000}, (_, i) => ({i, s: 'row ' + i}))", timeout: 120)
            let array = try #require(rows.value?.arrayValue)
            #expect(array.count == 200_000)
            #expect(array.last == ["i": 199_999, "s": "row 199999"])
        }
    }

    @Test func aBrowserKilledMidCommandFailsItAtOnceWithATypedError() async throws {
        try await BrowserFixture.run { browser in
            let page = try await browser.firstPage()
            let events = browser.connection.events()
            // The page answers this only after 10 minutes; the timeout is longer still.
            let pending = Task { try await page.evaluate("new Promise(resolve => setTimeout(resolve, 600000))", timeout: 900) }
            try await Task.sleep(nanoseconds: 300_000_000)
            browser.chromium.kill()
            let outcome = try await within(30, "the failure of the pending command") { await pending.result }
            guard case let .failure(error) = outcome, case let .connectionClosed(closure)? = error as? DevToolsError,
                  case .connectionLost = closure else {
                Issue.record("expected a lost connection, got \(outcome)")
                return
            }
            #expect(browser.connection.closure == closure)
            await #expect(throws: DevToolsError.connectionClosed(closure)) {
                _ = try await browser.connection.browser.send("Browser.getVersion")
            }
            // Every event stream has ended.
            try await within(10, "the end of the event stream") { for await _ in events {} }
            for await _ in browser.connection.events() { Issue.record("a stream made after the end got an event") }
        }
    }

    @Test func closingTheConnectionDropsWhatItsSessionsAddedAndLeavesTheBrowserRunning() async throws {
        let site = try LoopbackServer(pages: ["/": "<title>plain</title><script>document.title = String(window.added)</script>"])
        defer { site.stop() }
        try await BrowserFixture.run { browser in
            let first = try await DevToolsConnection.connect(to: browser.chromium.endpoint)
            let pageID = try #require(try await first.browser.targets().first { $0.type == "page" }?.targetID)
            let page = try await first.browser.attach(toTarget: pageID)
            try await page.enablePage()
            try await page.addScriptToEvaluateOnNewDocument("window.added = 'by the first connection'")
            try await page.navigate(to: site.url("/"))
            try await eventually("the script added by the first connection") {
                try await page.evaluate("document.title").value == "by the first connection"
            }
            await first.close()

            #expect(browser.chromium.process.isRunning)
            let second = try await browser.connection.browser.attach(toTarget: pageID)
            try await second.navigate(to: site.url("/?again"))
            try await eventually("the page without the script") {
                try await second.evaluate("location.search + ' ' + document.title").value == "?again undefined"
            }
        }
    }

    @Test(arguments: [
        ("localhost:44663", DevToolsEndpoint.http(host: "localhost", port: 44663)),
        ("127.0.0.1:9222", .http(host: "127.0.0.1", port: 9222)),
        ("[::1]:9222", .http(host: "::1", port: 9222)),
        ("http://127.0.0.1:9222/json/version", .http(host: "127.0.0.1", port: 9222)),
        (" ws://127.0.0.1:1234/devtools/browser/abc ", .webSocket(URL(string: "ws://127.0.0.1:1234/devtools/browser/abc")!)),
    ])
    func endpointsAreRead(text: String, expected: DevToolsEndpoint) throws {
        #expect(try DevToolsEndpoint(parsing: text) == expected)
    }

    @Test(arguments: ["localhost", "localhost:0", "localhost:70000", ":9222", "https://example.com:9222", "wss://127.0.0.1:1/x"])
    func malformedEndpointsAreRefused(text: String) {
        #expect(throws: DevToolsError.self) { try DevToolsEndpoint(parsing: text) }
    }

    @Test func aPortWithoutDevToolsIsReportedClearly() async throws {
        let site = try LoopbackServer(pages: ["/": "<title>not devtools</title>"])
        defer { site.stop() }
        await #expect {
            _ = try await DevToolsConnection.connect(to: .http(host: "127.0.0.1", port: Int(site.port)))
        } throws: { error in
            guard case let .unreachable(endpoint, reason)? = error as? DevToolsError else { return false }
            return endpoint == "http://127.0.0.1:\(site.port)" && reason.contains("404")
        }
    }
}
