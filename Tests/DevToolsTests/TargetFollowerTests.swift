import DevTools
import Foundation
import NIOConcurrencyHelpers
import SystemSupport
import TestSupport
import Testing

/// Following every tab of a real headless Chromium, with document-start scripts that the pages'
/// own inline scripts must already see.
@Suite(.serialized)
struct TargetFollowerTests {
    /// Counts its runs on the window and on the document, so that "ran once, before the page's
    /// own script" is visible to that script.
    static let documentStartScript = """
        window.__pagescriptWindow = (window.__pagescriptWindow || 0) + 1;
        document.__pagescriptDocument = (document.__pagescriptDocument || 0) + 1
        """

    /// A page whose inline script reports what the document-start script left.
    static let observedPage = """
        <title>observed</title>
        <script>document.title = 'seen ' + window.__pagescriptWindow + ' ' + document.__pagescriptDocument</script>
        """

    static func documentStart(_ target: FollowedTarget) -> [DevToolsCommand] {
        [.enablePage, .addScriptToEvaluateOnNewDocument(documentStartScript)]
    }

    func title(of target: FollowedTarget) async throws -> String {
        try await target.session.evaluate("document.title").value?.stringValue ?? ""
    }

    /// The popup `script` (run in `opener` with a user gesture) opens, once prepared.
    func popup(
        openedBy script: String, in opener: FollowedTarget, changes: AsyncStream<TargetFollower.Change>
    ) async throws -> FollowedTarget {
        _ = try await opener.session.evaluate("\(script); 0", userGesture: true)
        let attached = try await first(of: changes, "the popup's attachment") { change in
            if case let .attached(target) = change { return target.info.openerID == opener.targetID }
            return false
        }
        guard case let .attached(popup) = attached else { throw WaitTimedOut(what: "a popup", seconds: 0) }
        #expect(popup.startedPaused)
        return popup
    }

    @Test func popupsOpenedByThePageGetTheScriptBeforeTheirOwn() async throws {
        let site = try LoopbackServer(pages: ["/opener": "<title>opener</title>", "/observed": Self.observedPage])
        try await BrowserFixture.run { browser in
            let follower = try await TargetFollower.start(on: browser.connection, prepare: Self.documentStart)
            let changes = follower.changes()
            let opener = try await follower.openTab(url: site.url("/opener"))
            try await eventually("the opener's load") { try await title(of: opener) == "opener" }

            // A popup of another site, and one without an opener, get a window and a document of
            // their own: the script ran once in each, before the page's script.
            let crossSite = try await popup(
                openedBy: "window.open('\(site.url("/observed?cross", host: "localhost"))')", in: opener, changes: changes)
            try await eventually("the cross-site popup's own script") { try await title(of: crossSite) == "seen 1 1" }
            let withoutOpener = try await popup(
                openedBy: "window.open('/observed?noopener', '_blank', 'noopener')", in: opener, changes: changes)
            try await eventually("the noopener popup's own script") { try await title(of: withoutOpener) == "seen 1 1" }

            // A same-origin popup keeps the window of its initial about:blank (HTML's rule), so
            // its document is not new to Chromium: the script ran on that window (once for the
            // about:blank, and sometimes again as the popup's document is set up, still seeing
            // the about:blank's location and document). What it put on the window is in place
            // before the page's script; what it put on the document is not.
            let sameOrigin = try await popup(openedBy: "window.open('/observed?same')", in: opener, changes: changes)
            try await eventually("the same-origin popup's own script") {
                ["seen 1 undefined", "seen 2 undefined"].contains(try await title(of: sameOrigin))
            }
            #expect(try await sameOrigin.session.evaluate("location.search").value == "?same")
            await follower.stop()
        }
        site.stop()
    }

    @Test func aTabOpenedThroughTheFollowerGetsTheScriptInItsFirstDocument() async throws {
        let site = try LoopbackServer(pages: ["/observed": Self.observedPage])
        defer { site.stop() }
        try await BrowserFixture.run { browser in
            let follower = try await TargetFollower.start(on: browser.connection, prepare: Self.documentStart)
            let tab = try await follower.openTab(url: site.url("/observed"))
            #expect(tab.startedPaused)
            #expect(tab.preparationReplies.count == 2)
            #expect(tab.preparationReplies.last?["identifier"]?.stringValue?.isEmpty == false)
            try await eventually("the tab's own script") { try await title(of: tab) == "seen 1 1" }

            // And in every later document of the same tab, with no further preparation.
            try await tab.session.navigate(to: site.url("/observed?second"))
            try await eventually("the second document") {
                try await tab.session.evaluate("location.search + ' ' + document.title").value == "?second seen 1 1"
            }

            // A tab opened by someone else (here a raw Target.createTarget) is followed as well.
            let otherID = try await browser.connection.browser.createTarget(url: "about:blank")
            let other = try #require(await follower.waitForTarget(otherID))
            // The evaluation that navigates may be answered "target navigated" when the new
            // document commits first: what counts is the document it leads to, waited for below.
            _ = try? await other.session.evaluate("location.href = \(JSONValue.string(site.url("/observed")).serialized)")
            try await eventually("the other tab's own script") { try await title(of: other) == "seen 1 1" }
            await follower.stop()
        }
    }

    @Test func bindingsCarryMessagesFromThePageAndAnIsolatedOneIsHiddenFromIt() async throws {
        let site = try LoopbackServer(pages: [
            "/binding": "<title>binding</title><script>document.title = typeof pagescriptSend + ' ' + typeof pageVisible; pageVisible('from the page')</script>",
        ])
        defer { site.stop() }
        try await BrowserFixture.run { browser in
            let calls = browser.connection.events(["Runtime.bindingCalled"])
            let follower = try await TargetFollower.start(on: browser.connection) { _ in
                [
                    .enablePage, .enableRuntime,
                    .addBinding("pagescriptSend", executionContextName: "pagescript"),
                    .addBinding("pageVisible"),
                    .addScriptToEvaluateOnNewDocument(
                        "pagescriptSend(JSON.stringify({path: location.pathname, isolatedWorldSeesPageBinding: typeof pageVisible}))",
                        worldName: "pagescript"),
                ]
            }
            let tab = try await follower.openTab(url: site.url("/binding"))
            let received = try await within(20, "both binding calls") { () -> [String: BindingCall] in
                var received: [String: BindingCall] = [:]
                for await event in calls {
                    guard let call = BindingCall(event), call.sessionID == tab.session.id else { continue }
                    if call.name == "pagescriptSend", !call.payload.contains("/binding") { continue }
                    received[call.name] = call
                    if received.count == 2 { break }
                }
                return received
            }
            let isolated = try #require(received["pagescriptSend"])
            #expect(isolated.sessionID == tab.session.id)
            #expect(try JSONValue(parsing: isolated.payload) == ["path": "/binding", "isolatedWorldSeesPageBinding": "function"])
            #expect(received["pageVisible"]?.payload == "from the page")
            // The page's own script saw the page-wide binding but not the isolated world's.
            try await eventually("the page's title") { try await title(of: tab) == "undefined function" }
            await follower.stop()
        }
    }

    @Test func tabsThatAlreadyRanAreFollowedAndClosedOnesReported() async throws {
        try await BrowserFixture.run { browser in
            let prepared = NIOLockedValueBox<[String]>([])
            let follower = try await TargetFollower.start(on: browser.connection) { target in
                prepared.withLockedValue { $0.append(target.targetID) }
                return []
            }
            try await eventually("the tab that existed") { !follower.targets.isEmpty }
            let existing = try #require(follower.targets.first)
            #expect(existing.info.type == "page")
            #expect(!existing.startedPaused)
            #expect(prepared.withLockedValue { $0 } == [existing.targetID])

            let changes = follower.changes()
            try await browser.connection.browser.closeTarget(existing.targetID)
            let change = try await first(of: changes, "the closed tab") { change in
                if case .detached = change { return true }
                return false
            }
            guard case let .detached(closed) = change else { return }
            #expect(closed.targetID == existing.targetID)
            #expect(follower.targets.isEmpty)
            await follower.stop()
            for await _ in follower.changes() { Issue.record("a change after stop") }
        }
    }

    @Test func aFailingPreparationStillLetsTheTabRun() async throws {
        let site = try LoopbackServer(pages: ["/observed": Self.observedPage])
        defer { site.stop() }
        try await BrowserFixture.run { browser in
            let follower = try await TargetFollower.start(on: browser.connection) { target in
                target.startedPaused ? [DevToolsCommand("Page.noSuchCommand")] + Self.documentStart(target) : []
            }
            let changes = follower.changes()
            let targetID = try await browser.connection.browser.createTarget(url: "about:blank")
            let change = try await first(of: changes, "the failed preparation") { change in
                if case let .preparationFailed(target, _) = change { return target.targetID == targetID }
                return false
            }
            guard case let .preparationFailed(target, reason) = change else { return }
            #expect(reason.hasPrefix("Page.noSuchCommand: "))
            #expect(target.preparationReplies.first == .null)
            // The commands after the failed one still ran, and the tab was resumed.
            try await target.session.navigate(to: site.url("/observed"))
            try await eventually("the tab's own script") { try await title(of: target) == "seen 1 1" }
            await follower.stop()
        }
    }

    @Test func outOfProcessFramesAreFollowedAndPreparedToo() async throws {
        // `localhost` and `127.0.0.1` are different sites, so Chromium puts the frame in a
        // process (and a target) of its own.
        let site = try LoopbackServer(pages: [
            "/outer": "<title>outer</title><script>document.write(`<iframe src='http://localhost:${location.port}/frame'></iframe>`)</script>",
            "/frame": Self.observedPage,
        ])
        try await BrowserFixture.run { browser in
            let follower = try await TargetFollower.start(
                on: browser.connection, types: ["page", "iframe"], prepare: Self.documentStart)
            let changes = follower.changes()
            let outer = try await follower.openTab(url: site.url("/outer"))
            let attached = try await first(of: changes, "the frame's target") { change in
                if case let .attached(target) = change { return target.info.type == "iframe" }
                return false
            }
            guard case let .attached(inner) = attached else { return }
            #expect(inner.parentSessionID == outer.session.id)
            #expect(inner.startedPaused)
            try await eventually("the frame's own script") { try await title(of: inner) == "seen 1 1" }
            #expect(try await inner.session.evaluate("location.href").value == .string(site.url("/frame", host: "localhost")))
            await follower.stop()
        }
        site.stop()
    }
}
