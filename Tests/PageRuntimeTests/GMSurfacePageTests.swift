import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// The GM API the managers share beyond values and requests, in real pages on a strict
/// Content-Security-Policy: `GM_notification` and `GM_setClipboard` reported with every option,
/// menu commands registered, replaced and unregistered, `GM_getResourceURL` in both forms,
/// `GM_addElement` with a parent, `GM_info` with the browser it runs in, and `window.close` /
/// `window.focus` reported instead of done.
@Suite(.serialized)
struct GMSurfacePageTests {
    /// Runs `scripts` one after the other on the test page, then `after` as page code.
    static func run(_ scripts: [UserScript], on engine: Engine, after: String? = nil,
                    menu: String? = nil) async throws -> (results: [ScriptResult], after: ScriptResult?, menu: ScriptResult?) {
        let server = try LoopbackServer(responses: UserScriptAPITests.pageResponses())
        defer { server.stop() }
        return try await UserScriptAPITests.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            let outcome = try await PageFixtures.withPage(engine, url: "http://localhost:\(server.port)/") {
                page -> Result<([ScriptResult], ScriptResult?, ScriptResult?), InjectionError> in
                do throws(InjectionError) {
                    var results: [ScriptResult] = []
                    for script in scripts { results.append(try await page.run(userScript: script, id: nil, host: host)) }
                    var ranMenu: ScriptResult?
                    if let menu, let last = results.last { ranMenu = try await page.runMenuCommand(menu, of: last) }
                    var ranAfter: ScriptResult?
                    if let after { ranAfter = try await page.run(script: after) }
                    return .success((results, ranAfter, ranMenu))
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            return outcome
        }
    }

    /// Both call forms of `GM_notification` with every option, `GM.notification`, and
    /// `GM_setClipboard` with each form of its type: reported as given, `ondone` called with
    /// `clicked` false at once, `onclick` never, a tag replacing the notification before it.
    @Test(arguments: PageFixtures.engines)
    func notificationsAndClipboardAreReportedWithEveryOption(engine: Engine) async throws {
        let script = UserScriptAPITests.userScript("""
            const events = [];
            GM_notification({ text: "Saved", title: "Tidy", image: "https://example.com/i.png", timeout: 3000, silent: true, highlight: false,
              tag: "save", url: "https://example.com/done", onclick: () => events.push("onclick"),
              ondone: function (clicked) { events.push("ondone " + clicked + " " + this.text); } });
            GM_notification({ text: "Saved again", title: "Tidy", tag: "save", onclick: () => events.push("onclick") },
              clicked => events.push("second argument " + clicked));
            GM_notification("Plain", "Title", "https://example.com/p.png", () => events.push("onclick plain"));
            GM_notification({ highlight: true });
            const resolved = await GM.notification({ text: "Promised", timeout: 1.5, ondone: () => events.push("ondone promised") });
            GM_setClipboard("copied text", "text", () => events.push("clipboard callback"));
            GM_setClipboard("<b>bold</b>", "html");
            GM_setClipboard(42, { type: "html", mimetype: "text/x-custom" });
            GM_setClipboard({ toString() { return "object data"; } });
            GM_setClipboard("typed", "text/html");
            const copied = await GM.setClipboard("promised", { type: "text" }, () => events.push("promise callback"));
            return { events, resolved, copied: copied === undefined };
            """, grants: ["GM_notification", "GM.notification", "GM_setClipboard", "GM.setClipboard"])
        let outcome = try await Self.run([script], on: engine)
        let result = try #require(outcome.results.first)
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        #expect(result.value == [
            "events": ["ondone false Saved", "second argument false", "ondone promised", "clipboard callback", "promise callback"],
            "resolved": false, "copied": true,
        ], "\(engine): \(result.value?.serialized ?? "nil")")
        let activity = try #require(result.userscript)
        #expect(activity.json["notifications"] == [
            ["text": "Saved again", "title": "Tidy", "tag": "save"],
            ["text": "Plain", "title": "Title", "image": "https://example.com/p.png"],
            ["text": "", "title": "", "highlight": true],
            ["text": "Promised", "title": "", "timeout": 1.5],
        ], "\(engine): \(activity.json["notifications"]?.serialized ?? "nil")")
        #expect(activity.json["clipboard"] == [
            ["data": "copied text", "type": "text", "mimetype": "text/plain"],
            ["data": "<b>bold</b>", "type": "html", "mimetype": "text/html"],
            ["data": "42", "type": "html", "mimetype": "text/x-custom"],
            ["data": "object data", "type": "text", "mimetype": "text/plain"],
            ["data": "typed", "type": "html", "mimetype": "text/html"],
            ["data": "promised", "type": "text", "mimetype": "text/plain"],
        ], "\(engine): \(activity.json["clipboard"]?.serialized ?? "nil")")
        let lines = ReportRenderer.userscriptLines(activity)
        #expect(lines.contains("notification: Tidy: Saved again"))
        #expect(lines.contains("notification: highlights the tab"))
        #expect(lines.contains("clipboard (html): <b>bold</b>"))
    }

    /// The first notification of a tag keeps its place when a later one replaces it, and every
    /// option it was given is reported.
    @Test func aNotificationReportKeepsEveryOptionGiven() {
        var activity = GMActivity()
        activity.add(report: ["kind": "notification", "text": "One", "title": "T", "image": "i", "tag": "a", "silent": true, "highlight": false,
                              "timeout": 3000, "url": "u"])
        activity.add(report: ["kind": "notification", "text": "Two", "title": ""])
        #expect(activity.json["notifications"] == [
            ["text": "One", "title": "T", "image": "i", "tag": "a", "silent": true, "highlight": false, "timeout": 3000, "url": "u"],
            ["text": "Two", "title": ""],
        ])
        activity.add(report: ["kind": "notification", "text": "Three", "title": "", "tag": "a"])
        #expect(activity.notifications.map(\.text) == ["Three", "Two"])
    }

    /// Menu commands by the ID `GM_registerMenuCommand` returns or the one its options give:
    /// registering again under an ID replaces the command, unregistering removes it (by ID, or by
    /// name as Violentmonkey's IDs are), and the report and `--menu` follow.
    @Test(arguments: PageFixtures.engines)
    func menuCommandsAreReplacedAndUnregisteredByID(engine: Engine) async throws {
        let script = UserScriptAPITests.userScript("""
            const first = GM_registerMenuCommand("First", () => console.log("first ran"));
            const second = GM_registerMenuCommand("Second", () => console.log("second ran"), "s");
            const third = GM_registerMenuCommand("Third", () => console.log("third ran"), { accessKey: "t", autoClose: false, title: "the third" });
            const again = GM_registerMenuCommand("Third renamed", () => console.log("renamed ran"), { id: third });
            const custom = GM_registerMenuCommand("Custom", () => {}, { id: "custom-id" });
            GM_registerMenuCommand("By name", () => {});
            GM_unregisterMenuCommand(second);
            GM_unregisterMenuCommand("custom-id");
            GM_unregisterMenuCommand("By name");
            const promised = await GM.registerMenuCommand("Promised", () => console.log("promised ran"));
            const gone = await GM.registerMenuCommand("Gone", () => {});
            await GM.unregisterMenuCommand(gone);
            return [typeof first, first !== second, again === third, custom, typeof promised];
            """, grants: ["GM_registerMenuCommand", "GM_unregisterMenuCommand", "GM.registerMenuCommand", "GM.unregisterMenuCommand"])
        let outcome = try await Self.run([script], on: engine, menu: "Third renamed")
        let result = try #require(outcome.results.first)
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        #expect(result.value == ["number", true, true, "custom-id", "number"], "\(engine): \(result.value?.serialized ?? "nil")")
        #expect(result.userscript?.menuCommands == ["First", "Third renamed", "Promised"])
        #expect(result.userscript?.json["menuCommands"] == ["First", "Third renamed", "Promised"])
        #expect(outcome.menu?.console.map(\.message) == ["renamed ran"], "\(engine): \(String(describing: outcome.menu))")
    }

    /// An unregistered command cannot be run with `--menu`.
    @Test(arguments: PageFixtures.engines)
    func anUnregisteredMenuCommandDoesNotRun(engine: Engine) async throws {
        let script = UserScriptAPITests.userScript("""
            const id = GM_registerMenuCommand("Removed", () => console.log("removed ran"));
            GM_registerMenuCommand("Kept", () => {});
            GM_unregisterMenuCommand(id);
            """, grants: ["GM_registerMenuCommand", "GM_unregisterMenuCommand"])
        let outcome = try await Self.run([script], on: engine, menu: "Removed")
        #expect(outcome.menu?.error?.name == "MenuCommandNotFound", "\(engine): \(String(describing: outcome.menu))")
        #expect(outcome.menu?.error?.message.contains("it registered: Kept") == true)
        #expect(outcome.menu?.console.map(\.message) == [])
    }

    /// `GM_getResourceURL` gives a `data:` URL, and a `blob:` URL of the same bytes when asked
    /// with `true`; `GM_addElement` puts the element under the parent given; `GM_info` names the
    /// browser the script runs in.
    @Test(arguments: PageFixtures.engines)
    func resourcesElementsAndInfoAreTheManagers(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/words.txt": LoopbackResponse(body: "alpha beta", contentType: "text/plain")])
        defer { server.stop() }
        let script = UserScriptAPITests.userScript("""
            const data = GM_getResourceURL("words");
            const blob = GM_getResourceURL("words", true);
            const fetched = await (await fetch(blob)).text();
            const list = document.querySelector("#list");
            const child = GM_addElement(list, "li", { id: "child", textContent: "in the list", "data-kind": "added" });
            const promised = await GM.addElement(list, "li", { id: "promised" });
            const shorter = GM_addElement("span", { id: "body-child" });
            return {
              data: data.slice(0, 23), decoded: atob(data.slice(23)), blob: blob.startsWith("blob:"), sameBlob: GM_getResourceURL("words", true) === blob,
              fetched, promisedData: (await GM.getResourceUrl("words")) === data, promisedBlob: (await GM.getResourceUrl("words", true)) === blob,
              missing: GM_getResourceURL("missing"),
              parent: child.parentNode.id, kind: child.getAttribute("data-kind"), promisedParent: promised.parentNode.id,
              shorterParent: shorter.parentNode.localName, order: [...list.children].map(item => item.id),
              handler: GM_info.scriptHandler, browser: GM_info.platform.browserName, os: GM_info.platform.os,
              brand: GM_info.userAgentData.brands[0].brand, sandbox: GM_info.sandboxMode, injectInto: GM_info.injectInto,
              resource: GM_info.script.resources[0].name, downloadMode: GM_info.downloadMode, header: GM_info.script.header === GM_info.scriptMetaStr,
              same: GM.info.platform.browserVersion === GM_info.platform.browserVersion && GM_info.platform.browserVersion.length > 0
            };
            """, grants: ["GM_getResourceURL", "GM.getResourceUrl", "GM_addElement", "GM.addElement", "GM.info"],
            extra: ["// @resource words \(server.url("/words.txt"))"])
        let outcome = try await Self.run([script], on: engine)
        let result = try #require(outcome.results.first)
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        let browser = engine == .chromium ? "chrome" : "webkitgtk"
        let brand = engine == .chromium ? "Chromium" : "WebKitGTK"
        #expect(result.value == [
            "data": "data:text/plain;base64,", "decoded": "alpha beta", "blob": true, "sameBlob": true, "fetched": "alpha beta",
            "promisedData": true, "promisedBlob": true, "missing": .null,
            "parent": "list", "kind": "added", "promisedParent": "list", "shorterParent": "body", "order": ["child", "promised"],
            "handler": "PageScript", "browser": .string(browser), "os": "linux", "brand": .string(brand), "sandbox": "raw", "injectInto": "page",
            "resource": "words", "downloadMode": "native", "header": true, "same": true,
        ], "\(engine): \(result.value?.serialized ?? "nil")")
    }

    /// A script granted `window.close` and `window.focus` has both calls reported and the tab
    /// stays the run's; the rest of its `window` is the page's. A script without the grants has
    /// the page's own `window`.
    @Test(arguments: PageFixtures.engines)
    func windowCloseAndFocusAreReportedNotDone(engine: Engine) async throws {
        let granted = UserScriptAPITests.userScript("""
            window.close();
            window.focus();
            window.fromScript = "set through the script's window";
            const timer = await new Promise(resolve => window.setTimeout(() => resolve("timer"), 10));
            let heard = false;
            window.addEventListener("ping", () => { heard = true; });
            window.dispatchEvent(new Event("ping"));
            return [typeof window.close, window === unsafeWindow, unsafeWindow.fromScript, timer, heard, window.document === document,
                    window.location.href === location.href, typeof window.Object.keys, window.setTimeout === window.setTimeout];
            """, grants: ["window.close", "window.focus"], name: "Closer")
        let other = UserScriptAPITests.userScript("""
            return [window === unsafeWindow, typeof window.close];
            """, grants: ["GM_getValue"], name: "Other")
        let outcome = try await Self.run([granted, other], on: engine, after: "[document.title, window.fromScript]")
        let result = try #require(outcome.results.first)
        #expect(result.error == nil, "\(engine): \(String(describing: result.error))")
        #expect(result.value == ["function", false, "set through the script's window", "timer", true, true, true, "function", true],
                "\(engine): \(result.value?.serialized ?? "nil")")
        #expect(result.userscript?.windowCalls == ["close", "focus"])
        #expect(result.userscript?.json["windowCalls"] == ["close", "focus"])
        #expect(ReportRenderer.userscriptLines(result.userscript ?? GMActivity()).contains("window.close(): reported, not done"))
        #expect(outcome.results.last?.value == [true, "function"])
        #expect(outcome.results.last?.userscript?.json["windowCalls"] == nil)
        #expect(outcome.after?.value == ["Shop", "set through the script's window"], "\(engine): the tab did not stay the run's")
    }
}
