import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// The GM API in real pages, on both engines: real-world-shaped userscripts on a page served with
/// a strict Content-Security-Policy, their effects checked in the page; values kept across runs;
/// `GM_xmlhttpRequest` to a second loopback server within `@connect` and refused outside it; and
/// a hostile page that tries to reach the API.
@Suite(.serialized)
struct UserScriptAPITests {
    /// The page: its own script (allowed by the policy, same origin) leaves data for `unsafeWindow`.
    static func pageResponses(pageScript: String = "window.pageData = { answer: 42 };") -> [String: LoopbackResponse] {
        [
            "/": LoopbackResponse(
                html: """
                    <!doctype html><html><head><title>Shop</title><script src="/page.js"></script></head>
                    <body><p id="target">before</p><ul id="list"></ul></body></html>
                    """,
                headers: PageFixtures.strictPolicy),
            "/page.js": LoopbackResponse(body: pageScript, contentType: "text/javascript"),
            // A library in the shape of jQuery: a factory that puts `$` on the global object.
            "/mini-query.js": LoopbackResponse(body: """
                (function (global, factory) { global.miniQuery = global.$ = factory(global.document); })(this, function (document) {
                  function wrap(nodes) {
                    return {
                      length: nodes.length,
                      text: function (value) { nodes.forEach(function (node) { node.textContent = value; }); return this; },
                      append: function (html) { nodes.forEach(function (node) { node.insertAdjacentHTML("beforeend", html); }); return this; }
                    };
                  }
                  return function (selector) { return wrap(Array.prototype.slice.call(document.querySelectorAll(selector))); };
                });
                // The file ends in a comment without a line break.
                """, contentType: "text/javascript"),
            "/words.txt": LoopbackResponse(body: "alpha beta", contentType: "text/plain"),
        ]
    }

    /// A second server, another host for `GM_xmlhttpRequest` (without CORS headers: only a
    /// request PageScript makes can read it).
    static func apiResponses() -> [String: LoopbackResponse] {
        ["/data": LoopbackResponse(body: #"{"word": "from the API"}"#, contentType: "application/json")]
    }

    static func userScript(_ body: String, grants: [String], extra: [String] = [], name: String = "Test") -> UserScript {
        let lines = ["// ==UserScript==", "// @name \(name)", "// @namespace https://pagescript.test/", "// @match *://*/*"]
            + grants.map { "// @grant \($0)" } + extra + ["// ==/UserScript=="]
        return UserScript(text: lines.joined(separator: "\n") + "\n" + body)
    }

    static func withLibrary<Output>(_ body: (URL) async throws -> Output) async throws -> Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gm-page-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    @Test(arguments: PageFixtures.engines)
    func realWorldScriptsRunWithTheirEffectsInThePage(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.pageResponses())
        let api = try LoopbackServer(responses: Self.apiResponses())
        defer {
            server.stop()
            api.stop()
        }
        // The page is on `localhost` (`@connect self`), the API on 127.0.0.1, which `@connect`
        // allows; 127.0.0.2 is another host, which it does not.
        let pageURL = "http://localhost:\(server.port)/"
        try await Self.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            defer { Task { await host.shutdown() } }
            let results = try await PageFixtures.withPage(engine, url: pageURL) { page -> Result<[String: ScriptResult], InjectionError> in
                do throws(InjectionError) {
                    var results: [String: ScriptResult] = [:]
                    let scripts: [(name: String, script: UserScript, id: ScriptID)] = [
                        ("values", Self.userScript("""
                            const visits = GM_getValue("visits", 0) + 1;
                            GM_setValue("visits", visits);
                            GM_setValue("seen", { at: [1, 2], page: location.pathname });
                            const copy = GM_getValue("seen");
                            copy.at.push(3);
                            GM_deleteValue("nothing");
                            ({ visits, again: GM_getValue("seen").at.length, keys: GM_listValues().sort() })
                            """, grants: ["GM_getValue", "GM_setValue", "GM_deleteValue", "GM_listValues"]), "values-script"),
                        ("require", Self.userScript("""
                            $("#target").text("set by the required library");
                            return [typeof miniQuery, document.querySelector("#target").textContent];
                            """, grants: ["none"], extra: ["// @require \(server.url("/mini-query.js"))"]), "require-script"),
                        ("requests", Self.userScript("""
                            const answer = await GM.xmlHttpRequest({ url: "\(api.url("/data"))", responseType: "json" });
                            document.querySelector("#target").dataset.word = answer.response.word;
                            const refused = await new Promise(resolve => GM_xmlhttpRequest({
                              url: "http://127.0.0.2:\(api.port)/data",
                              onload: () => resolve("loaded"),
                              onerror: response => resolve(response.error)
                            }));
                            const text = await new Promise(resolve => GM_xmlhttpRequest({ url: "/words.txt", onload: resolve }));
                            ({ status: answer.status, word: answer.response.word, finalUrl: answer.finalUrl, refused,
                               headers: /content-type: application\\/json/i.test(answer.responseHeaders), text: text.responseText })
                            """, grants: ["GM_xmlhttpRequest", "GM.xmlHttpRequest"], extra: ["// @connect 127.0.0.1", "// @connect self"]), "request-script"),
                        ("window", Self.userScript("""
                            unsafeWindow.fromUserscript = unsafeWindow.pageData.answer + 1;
                            GM_addStyle("#target { color: rgb(1, 2, 3) }");
                            const element = GM_addElement("li", { id: "added", textContent: "added item" });
                            document.querySelector("#list").append(element);
                            // A page script: the page's own data, in the page's world, whatever its policy.
                            GM_addElement("script", { textContent: "window.fromAddedScript = window.pageData.answer * 2;" });
                            [GM_info.scriptHandler, GM_info.script.name, GM_info.script.version, unsafeWindow === window]
                            """, grants: ["unsafeWindow", "GM_addStyle", "GM_addElement"], extra: ["// @version 2.1"], name: "Window"), "window-script"),
                        ("promises", Self.userScript("""
                            await GM.setValue("color", "teal");
                            const color = await GM.getValue("color", "none");
                            const keys = await GM.listValues();
                            await GM.addStyle("#list { margin-left: 7px }");
                            ({ color, keys, info: GM.info.script.name })
                            """, grants: ["GM.getValue", "GM.setValue", "GM.listValues", "GM.addStyle"]), "promise-script"),
                        ("reports", Self.userScript("""
                            GM_registerMenuCommand("Say hello", () => { console.log("hello from the menu"); GM_setValue("menu", "used"); });
                            GM_notification({ text: "Saved", title: "Tidy" });
                            GM_setClipboard("copied text");
                            GM_openInTab("https://example.com/");
                            GM_log("logged with GM_log");
                            GM_xmlhttpRequest({ url: "\(api.url("/data"))", responseType: "json", onload: response => {
                              document.title = "late: " + response.response.word;
                            } });
                            "done"
                            """, grants: ["GM_registerMenuCommand", "GM_notification", "GM_setClipboard", "GM_openInTab", "GM_log",
                                          "GM_xmlhttpRequest", "GM_setValue", "GM_webRequest", "window.onurlchange"],
                            extra: ["// @connect 127.0.0.1"]), "report-script"),
                    ]
                    for (name, script, id) in scripts {
                        do {
                            results[name] = try await page.run(userScript: script, id: id, host: host)
                        } catch {
                            throw .library("\(name): \(error)")
                        }
                    }
                    results["menu"] = try await page.runMenuCommand("Say hello", of: results["reports"]!)
                    results["effects"] = try await page.run(script: """
                        ({ color: getComputedStyle(document.querySelector("#target")).color,
                           margin: getComputedStyle(document.querySelector("#list")).marginLeft,
                           word: document.querySelector("#target").dataset.word,
                           added: document.querySelector("#list #added")?.textContent,
                           fromUserscript: window.fromUserscript, fromAddedScript: window.fromAddedScript, title: document.title,
                           urlchangeReady: window.onurlchange === null })
                        """)
                    return .success(results)
                } catch {
                    return .failure(error)
                }
            }.get()
            for (name, result) in results {
                #expect(result.error == nil, "\(engine) \(name): \(String(describing: result.error))")
            }
            #expect(results["values"]?.value == ["visits": 1, "again": 2, "keys": ["seen", "visits"]])
            #expect(results["require"]?.value == ["function", "set by the required library"])
            let requests = try #require(results["requests"]?.value)
            #expect(requests["status"] == 200)
            #expect(requests["word"] == "from the API")
            #expect(requests["finalUrl"] == .string(api.url("/data")))
            #expect(requests["headers"] == true)
            #expect(requests["text"] == "alpha beta")
            #expect(requests["refused"]?.stringValue?.contains("@connect 127.0.0.2") == true, "\(requests)")
            #expect(results["window"]?.value == ["PageScript", "Window", "2.1", true])
            #expect(results["promises"]?.value == ["color": "teal", "keys": ["color"], "info": "Test"])
            let activity = try #require(results["reports"]?.userscript)
            #expect(activity.menuCommands == ["Say hello"])
            #expect(activity.notifications.map { $0.text } == ["Saved"])
            #expect(activity.clipboard.map { $0.data } == ["copied text"])
            #expect(activity.openedTabs == ["https://example.com/"])
            #expect(activity.unprovidedGrants == ["GM_webRequest"])
            #expect(results["reports"]?.console.map(\.message) == ["logged with GM_log"])
            #expect(results["menu"]?.console.map(\.message) == ["logged with GM_log", "hello from the menu"])
            #expect(results["effects"]?.value == [
                "color": "rgb(1, 2, 3)", "margin": "7px", "word": "from the API", "added": "added item", "fromUserscript": 43, "fromAddedScript": 84,
                "title": "late: from the API", "urlchangeReady": true,
            ])
            let store = ScriptValueStore(libraryDirectory: library)
            let kept = try store.values(of: "values-script")
            #expect(kept.keys.sorted() == ["seen", "visits"])
            #expect(kept["visits"] == 1)
            #expect(kept["seen"] == ["at": [1, 2], "page": "/"])
            #expect(try store.values(of: "report-script")["menu"] == "used")
        }
    }

    @Test(arguments: PageFixtures.engines)
    func valuesSurviveFromOneRunToTheNext(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.pageResponses())
        defer { server.stop() }
        let script = Self.userScript("""
            const count = GM_getValue("count", 0);
            GM_setValue("count", count + 1);
            setTimeout(() => GM_setValue("later", count), 0);
            return count;
            """, grants: ["GM_getValue", "GM_setValue"])
        try await Self.withLibrary { library in
            var counts: [JSONValue?] = []
            for _ in 0..<2 {
                // A new browser and a new host each time: only the library carries the values.
                let host = GMHost(libraryDirectory: library)
                let result = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<ScriptResult, InjectionError> in
                    do throws(InjectionError) {
                        let result = try await page.run(userScript: script, id: "counter", host: host)
                        // The timer's write comes after the result: the next poll picks it up.
                        try? await Task.sleep(nanoseconds: 100_000_000)
                        #expect(try await page.serveLateUserScriptWork().served == 1)
                        return .success(result)
                    } catch {
                        return .failure(error)
                    }
                }.get()
                await host.shutdown()
                counts.append(result.value)
            }
            #expect(counts == [0, 1])
            let kept = try ScriptValueStore(libraryDirectory: library).values(of: "counter")
            #expect(kept["count"] == 2)
            #expect(kept["later"] == 1)
        }
    }

    /// The same script run again in the same session sees what its last run wrote: the body it
    /// is sent in (WebKit: the values written into it) is made again when they change.
    @Test(arguments: PageFixtures.engines)
    func aScriptRunAgainOnTheSamePageSeesTheValuesItsLastRunWrote(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.pageResponses())
        defer { server.stop() }
        let script = Self.userScript("""
            const count = GM_getValue("count", 0);
            GM_setValue("count", count + 1);
            return count;
            """, grants: ["GM_getValue", "GM_setValue"])
        try await Self.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            let counts = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<[JSONValue?], InjectionError> in
                do throws(InjectionError) {
                    var counts: [JSONValue?] = []
                    for _ in 0..<3 {
                        counts.append(try await page.run(userScript: script, id: "counter", host: host).value)
                    }
                    return .success(counts)
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            #expect(counts == [0, 1, 2])
        }
    }

    /// A session that takes over a runtime another session installed in the same document (as
    /// browse does with a tab whose scripts ran in the background) serves each script's later
    /// work for that script: the runs of both sessions are told apart although each session
    /// counts its own.
    @Test(arguments: PageFixtures.engines)
    func aRuntimeTakenOverServesEachScriptsOwnWork(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.pageResponses())
        defer { server.stop() }
        let first = Self.userScript("GM_setValue(\"own\", \"first\"); return 1;", grants: ["GM_setValue"], name: "First")
        let second = Self.userScript("setTimeout(() => GM_setValue(\"late\", \"second\"), 0); return 2;", grants: ["GM_setValue"], name: "Second")
        try await Self.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            let served = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<Int, InjectionError> in
                do throws(InjectionError) {
                    _ = try await page.run(userScript: first, id: "first", host: host)
                    // Another session on the same document, with a runtime of its own.
                    let other = PageSession(session: page.session, scriptTimeout: page.scriptTimeout)
                    _ = try await other.run(userScript: second, id: "second", host: host)
                    page.resumeRuntime(other.installedRuntime)
                    try? await Task.sleep(nanoseconds: 100_000_000)
                    return .success(try await page.serveLateUserScriptWork().served)
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            #expect(served == 1)
            let store = ScriptValueStore(libraryDirectory: library)
            #expect(try store.values(of: "first").keys == ["own"])
            #expect(try store.values(of: "second")["late"] == "second")
        }
    }

    /// The page's own script tries everything it can to reach the API: globals, the page's
    /// built-ins replaced to spy on what the userscript's API does with them (values, requests,
    /// notifications, the clipboard, menu commands, the script's own `window`), and a call into
    /// PageScript's entry point without the key.
    @Test(arguments: PageFixtures.everyEngine)
    func aHostilePageCannotReachTheAPI(engine: Engine) async throws {
        let spy = """
            const realApply = Reflect.apply;
            let busy = false;
            window.leaked = [];
            const record = (name, values) => {
              if (busy) return;
              busy = true;
              for (let index = 0; index < values.length; index++) {
                if (typeof values[index] === "string") window.leaked[window.leaked.length] = name + ": " + values[index];
              }
              busy = false;
            };
            for (const [owner, name] of [[JSON, "stringify"], [JSON, "parse"], [Reflect, "apply"], [Object, "keys"], [Function.prototype, "call"],
                                         [Function.prototype, "apply"], [Function.prototype, "bind"], [Document.prototype, "createElement"],
                                         [Node.prototype, "appendChild"], [Element.prototype, "setAttribute"], [window, "fetch"],
                                         [XMLHttpRequest.prototype, "open"], [String.prototype, "split"], [Array.prototype, "join"]]) {
              const original = owner[name];
              owner[name] = function () { record(name, arguments); return realApply(original, this, arguments); };
            }
            // A control: the spies do see what passes through them.
            JSON.parse('"spy-control"');
            window.probe = function () {
              const found = Object.getOwnPropertyNames(window).filter(name => /^(GM|unsafeWindow|PageScriptGM|ExtensionPreprocessingJS)/.test(name));
              if (typeof GM_getValue !== "undefined") found.push("GM_getValue");
              if (typeof GM_setValue !== "undefined") found.push("GM_setValue");
              if (typeof GM_xmlhttpRequest !== "undefined") found.push("GM_xmlhttpRequest");
              if (typeof GM !== "undefined") found.push("GM");
              if (typeof PageScriptGM !== "undefined") found.push("PageScriptGM");
              for (const name of Object.getOwnPropertyNames(window).filter(name => name.startsWith("pagescript_"))) {
                if (window[name]("wrong key", ['{"kind":"poll"}'], []) !== undefined) found.push("entry answered " + name);
              }
              return found;
            };
            """
        let server = try LoopbackServer(responses: Self.pageResponses(pageScript: spy))
        let api = try LoopbackServer(responses: Self.apiResponses())
        defer {
            server.stop()
            api.stop()
        }
        try await Self.withLibrary { library in
            let store = ScriptValueStore(libraryDirectory: library)
            _ = try store.apply([.set(key: "token", value: "s3cret-token")], to: "secret-script")
            let host = GMHost(libraryDirectory: library)
            let results = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<[ScriptResult], InjectionError> in
                do throws(InjectionError) {
                    let userscript = try await page.run(userScript: Self.userScript("""
                        const token = GM_getValue("token");
                        GM_setValue("copy", token + "-copy");
                        GM_addStyle("#target { color: rgb(4, 5, 6) }");
                        const response = await GM.xmlHttpRequest({ url: "\(api.url("/data"))?token=" + token });
                        GM_notification({ text: token, title: token, tag: token, timeout: 5, ondone: () => {} });
                        GM_setClipboard(token, { type: "html", mimetype: "text/" + token }, () => {});
                        const id = GM_registerMenuCommand(token, () => {}, { id: token, title: token, accessKey: token });
                        GM_unregisterMenuCommand(id);
                        window.close();
                        return [token, response.status];
                        """, grants: ["GM_getValue", "GM_setValue", "GM_addStyle", "GM.xmlHttpRequest", "GM_notification", "GM_setClipboard",
                                      "GM_registerMenuCommand", "GM_unregisterMenuCommand", "window.close"], extra: ["// @connect 127.0.0.1"]),
                        id: "secret-script", host: host)
                    let probe = try await page.run(script: """
                        [window.probe(), window.leaked.filter(entry => entry.includes("s3cret")), window.leaked.some(entry => entry.includes("spy-control"))]
                        """)
                    return .success([userscript, probe])
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            #expect(results[0].error == nil, "\(String(describing: results[0].error))")
            #expect(results[0].value == ["s3cret-token", 200])
            #expect(results[0].userscript?.notifications.map(\.text) == ["s3cret-token"])
            #expect(results[0].userscript?.clipboard.map(\.mimetype) == ["text/s3cret-token"])
            #expect(results[0].userscript?.windowCalls == ["close"])
            // The page saw no API name, no entry point that answers, and none of the values.
            #expect(results[1].value == [[], [], true], "\(engine): \(results[1].value?.serialized ?? "nil")")
            #expect(try store.values(of: "secret-script")["copy"] == "s3cret-token-copy")
        }
    }

    /// A userscript's request travels in two parts (the run's ID and timing as the call's
    /// argument, which WebKitWebDriver hands to the page's `JSON.parse`; the rest in the body): a
    /// page that rewrites the argument to lift the address check gets nothing of it, and the
    /// script does not run on an address it was not sent for.
    @Test(arguments: PageFixtures.engines)
    func aPageThatRewritesTheArgumentCannotLiftTheAddressCheck(engine: Engine) async throws {
        let rewriter = """
            const parse = JSON.parse, stringify = JSON.stringify;
            window.rewritten = 0;
            JSON.parse = function (text, reviver) {
              const value = parse(text, reviver);
              if (typeof value !== "string" || !value.includes('"kind":"run"')) return value;
              const request = parse(value);
              request.requiredURL = location.href;
              window.rewritten++;
              return stringify(request);
            };
            """
        let server = try LoopbackServer(responses: Self.pageResponses(pageScript: rewriter))
        defer { server.stop() }
        try await Self.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            let outcome = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<(String?, ScriptResult), InjectionError> in
                do throws(InjectionError) {
                    var refusal: String?
                    do throws(InjectionError) {
                        _ = try await page.run(userScript: Self.userScript("window.ranAnyway = true; GM_getValue(\"x\", 1)", grants: ["GM_getValue"]),
                                               id: "address-bound", host: host, requiredURL: server.url("/elsewhere"))
                    } catch {
                        guard case let .pageChanged(_, actual) = error else { throw error }
                        refusal = actual
                    }
                    return .success((refusal, try await page.run(script: "[window.ranAnyway === true, window.rewritten]")))
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            #expect(outcome.0 == server.url("/"), "\(engine): the run was not refused")
            let seen = outcome.1.value?.arrayValue
            #expect(seen?.first == false, "\(engine): the script ran on an address it was not sent for")
            if engine == .webkit {
                // The page did rewrite the argument (the rewriter is not idle), to no effect.
                #expect((seen?.last?.intValue ?? 0) > 0, "\(engine): \(outcome.1.value?.serialized ?? "nil")")
            }
        }
    }

    /// On Chromium (DevTools) and Firefox (WebDriver BiDi's preload scripts) a `document-start`
    /// library script runs before the page's first (inline) script, with its GM API; on WebKit it
    /// runs after the load and says so.
    @Test(arguments: PageFixtures.everyEngine)
    func documentStartScriptsRunFirstWhereTheEngineAllows(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: """
            <!doctype html><html><head><title>Early</title>
            <script>window.sawAtStart = typeof window.fromUserscript === "undefined" ? "nothing" : window.fromUserscript;</script>
            </head><body></body></html>
            """)])
        defer { server.stop() }
        try await Self.withLibrary { folder in
            try Data(Self.userScript("""
                unsafeWindow.fromUserscript = GM_getValue("word", "defined early");
                GM_setValue("ran", document.readyState);
                """, grants: ["GM_getValue", "GM_setValue"], extra: ["// @run-at document-start"], name: "Early").text.utf8)
                .write(to: folder.appendingPathComponent("early.user.js"))
            let library = try ScriptLibrary(directory: folder)
            let host = GMHost(libraryDirectory: folder)
            let address = server.url("/")
            let early = LibraryRun.documentStartScripts(library: library, address: address)
            #expect(early.map(\.script.name) == ["Early"])
            let outcome = try await PageRunner.withPage(on: .local(engine), url: address, scriptTimeout: 10, beforeOpening: { page throws(InjectionError) in
                _ = try await page.installDocumentStartScripts(early, url: address, host: host)
            }) { page, _ throws(PageRunner.Failure) -> (results: [LibraryScriptResult], saw: ScriptResult) in
                do throws(InjectionError) {
                    let results = try await LibraryRun.runMatching(library: library, on: page, host: host, early: try await page.collectDocumentStartRuns())
                    return (results.results, try await page.run(script: "window.sawAtStart"))
                } catch {
                    throw .injection(error)
                }
            }
            await host.shutdown()
            let result = try #require(try outcome.results.first?.outcome.get())
            #expect(result.error == nil)
            let ran = try ScriptValueStore(libraryDirectory: folder).values(of: library.find("Early").id)["ran"]
            if engine != .webkit {
                #expect(outcome.saw.value == "defined early")
                #expect(result.userscript?.ranAt == nil)
                #expect(ran == "loading")
            } else {
                #expect(outcome.saw.value == "nothing")
                #expect(result.userscript?.ranAt == "document-end")
                #expect(ran == "complete")
            }
        }
    }
}
