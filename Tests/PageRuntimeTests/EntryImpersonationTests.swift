import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// A page that learns the runtime's entry name, replaces its own document behind PageScript's back
/// (as `edit`'s later runs meet it) and lies in wait there learns nothing from PageScript's next
/// call: neither the key nor a userscript's values, whether it plants a function under the name
/// or a getter on something the call reads (`performance.timeOrigin`), and reads what calls it
/// (`caller`, `caller.arguments`, the caller's source). The run then goes on in the new document.
@Suite(.serialized)
struct EntryImpersonationTests {
    enum Trap: String, CaseIterable, Sendable {
        /// A function of the page's under the old document's entry name.
        case planted
        /// A getter on `Performance.prototype.timeOrigin`, which a call into a document without
        /// the runtime reads.
        case getter
        /// V8's `Error.prepareStackTrace`, which gets the functions of an error's frames: the
        /// installation's calibration error comes from PageScript's own code (JavaScriptCore
        /// has no such hook).
        case stackTrace
    }

    /// How the trap writes down whatever reaches it, into `window.leaked`.
    static let recorder = """
        window.leaked = [];
        function describe(value) {
          if (typeof value === "function") { return String(value); }
          if (value && typeof value === "object" && typeof value.length === "number") { return Array.prototype.map.call(value, describe); }
          try { return JSON.stringify(value); } catch (error) { return String(value); }
        }
        function record(what, self, givenArguments) {
          var caller = null, callerArguments = null;
          try { caller = self.caller; } catch (error) { caller = "unreadable: " + error; }
          try { callerArguments = caller && typeof caller === "function" && caller.arguments ? describe(caller.arguments) : null; } catch (error) { callerArguments = "unreadable"; }
          window.leaked.push(JSON.stringify({ what: what, arguments: describe(givenArguments), caller: caller ? String(caller) : null, callerArguments: callerArguments }));
        }
        """

    static func responses() -> [String: LoopbackResponse] {
        var responses: [String: LoopbackResponse] = [:]
        // The first page waits for the runtime's name and for the test's go, keeps the name in
        // sessionStorage and leaves for the trap.
        let start = """
            var target = location.pathname.replace("/start-", "/");
            var timer = setInterval(function () {
              var names = Object.getOwnPropertyNames(window).filter(function (name) { return name.indexOf("pagescript_") === 0; });
              if (names.length === 0 || document.documentElement.getAttribute("data-go") !== "1") { return; }
              clearInterval(timer);
              sessionStorage.setItem("entryName", names[0]);
              location.href = target;
            }, 5);
            """
        for trap in Trap.allCases {
            responses["/start-\(trap.rawValue)"] = LoopbackResponse(
                html: "<!doctype html><html><head><title>Start</title><script src=\"/start.js\"></script></head><body></body></html>",
                headers: PageFixtures.strictPolicy)
            responses["/\(trap.rawValue)"] = LoopbackResponse(
                html: "<!doctype html><html><head><title>Trap</title><script src=\"/\(trap.rawValue).js\"></script></head><body></body></html>",
                headers: PageFixtures.strictPolicy)
        }
        responses["/start.js"] = LoopbackResponse(body: start, contentType: "text/javascript")
        responses["/planted.js"] = LoopbackResponse(body: recorder + """
            window[sessionStorage.getItem("entryName")] = function planted() {
              record("planted", planted, arguments);
              return undefined;
            };
            """, contentType: "text/javascript")
        responses["/getter.js"] = LoopbackResponse(body: recorder + """
            var originalTimeOrigin = Object.getOwnPropertyDescriptor(Performance.prototype, "timeOrigin").get;
            Object.defineProperty(Performance.prototype, "timeOrigin", { configurable: true, get: function timeOrigin() {
              record("timeOrigin", timeOrigin, arguments);
              return originalTimeOrigin.call(this);
            } });
            """, contentType: "text/javascript")
        responses["/stackTrace.js"] = LoopbackResponse(body: recorder + """
            Error.prepareStackTrace = function prepare(error, frames) {
              record("prepareStackTrace", prepare, frames.map(function (frame) { var found = frame.getFunction(); return found ? String(found) : null; }));
              return String(error);
            };
            """, contentType: "text/javascript")
        return responses
    }

    @Test(arguments: PageFixtures.engines, Trap.allCases)
    func aPageLyingInWaitInANewDocumentLearnsNothing(engine: Engine, trap: Trap) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        let secret = "SECRET-" + UUID().uuidString
        let keeper = UserScriptAPITests.userScript("GM_setValue(\"token\", \(JSONValue.string(secret).serialized)); return 1;",
                                                   grants: ["GM_setValue"])
        let reader = UserScriptAPITests.userScript("return GM_getValue(\"token\", \"none\") + \" in \" + location.pathname;",
                                                   grants: ["GM_getValue"])
        try await UserScriptAPITests.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            typealias Outcome = (kept: JSONValue?, entries: [RuntimeEntry?], path: String, read: Result<ScriptResult, InjectionError>, leaked: String?)
            let outcome = try await PageFixtures.withPage(engine, url: server.url("/start-\(trap.rawValue)")) { page -> Result<Outcome, InjectionError> in
                do throws(InjectionError) {
                    let kept = try await page.run(userScript: keeper, id: "keeper", host: host)
                    let firstEntry = page.state.read(\.entry)
                    _ = try await page.run(script: "document.documentElement.setAttribute('data-go', '1')")
                    // The page leaves on its own; the driver's own calls see it arrive.
                    var path = ""
                    for _ in 0..<200 where path != "/\(trap.rawValue)" {
                        try? await Task.sleep(nanoseconds: 20_000_000)
                        path = (try? await page.session.executeScript("return document.readyState === 'complete' ? location.pathname : ''"))?.stringValue ?? ""
                    }
                    let read: Result<ScriptResult, InjectionError>
                    do throws(InjectionError) {
                        read = .success(try await page.run(userScript: reader, id: "keeper", host: host))
                    } catch {
                        read = .failure(error)
                    }
                    // The first entry is spent: nothing is sent through it again.
                    if let firstEntry {
                        _ = try? await page.execute(ScriptBody.call(entry: firstEntry), entry: firstEntry, request: RuntimeRequest.context, timeout: 5)
                    }
                    let leaked = try? await page.session.executeScript("return window.leaked ? window.leaked.join('\\n') : null")
                    return .success((kept.value, [firstEntry, page.state.read(\.entry)], path, read, leaked?.stringValue))
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            let (kept, entries, path, read, leaked) = outcome
            #expect(kept == 1)
            #expect(path == "/\(trap.rawValue)", "the page went to its trap")
            let first = try #require(entries[0])
            let installedThere = try #require(entries[1], "the trap document got a runtime of its own")
            #expect(installedThere != first)
            let record = try #require(leaked, "the trap document has its recorder")
            #expect(!record.contains(secret), "a userscript's value reached the page: \(record)")
            // The first entry's challenge is what a planted function is asked; nothing else of
            // either entry reaches the page.
            for (name, text) in [("key", first.key), ("response", first.response), ("key", installedThere.key),
                                 ("challenge", installedThere.challenge), ("response", installedThere.response)] {
                #expect(!record.contains(text), "a runtime's \(name) reached the page: \(record)")
            }
            #expect(!record.contains("GM_getValue"), "the run's body reached the page: \(record)")
            // The trap was reached: the first run's call into the new document (or, for the stack
            // hook, the installation there on V8) met it. A planted function sees one call only,
            // the challenge's (the entry is spent then).
            let what = [Trap.planted: "planted", .getter: "timeOrigin", .stackTrace: "prepareStackTrace"][trap] ?? ""
            let reached = record.components(separatedBy: "\"what\":\"\(what)\"").count - 1
            switch trap {
            case .planted: #expect(reached == 1, "the trap was reached \(reached) times: \(record)")
            case .getter: #expect(reached >= 1, "the trap was not reached: \(record)")
            case .stackTrace: #expect(engine != .chromium || reached >= 1, "the trap was not reached: \(record)")
            }
            #expect((try? read.get().value) == .string("\(secret) in /\(trap.rawValue)"), "the run goes on in the new document: \(read)")
        }
    }

    /// Transports that compile the call with the page's own `Function` cannot keep anything from
    /// the page: chromedriver's Execute Script does, on a Chromium endpoint without DevTools
    /// commands. A userscript's run there says so in its problems; on DevTools and on WebKit's
    /// driver a page that wraps `Function` sees none of PageScript's calls.
    @Test(arguments: [(Engine.webkit, false), (.chromium, false), (.chromium, true)])
    func aRunWhoseCallsThePageCompilesSaysSo(engine: Engine, withoutDevTools: Bool) async throws {
        let server = try LoopbackServer(responses: PageFixtures.strictPage(title: "Compiler", script: """
            window.compiled = [];
            var RealFunction = Function;
            window.Function = function () { window.compiled.push(Array.prototype.join.call(arguments, "\\n")); return RealFunction.apply(this, arguments); };
            window.Function.prototype = RealFunction.prototype;
            """))
        defer { server.stop() }
        let secret = "SECRET-" + UUID().uuidString
        let script = UserScriptAPITests.userScript("GM_setValue(\"token\", \(JSONValue.string(secret).serialized)); return GM_getValue(\"token\");",
                                                   grants: ["GM_getValue", "GM_setValue"])
        try await UserScriptAPITests.withLibrary { library in
            let host = GMHost(libraryDirectory: library)
            let outcome = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> Result<([ScriptResult], String?), InjectionError> in
                // The endpoint that refuses chromedriver's DevTools command, as a grid may: the
                // session is told so as it would learn it from the first refusal.
                if withoutDevTools { (page.transport as? DevToolsTransport)?.learnEndpointRefusesDevTools() }
                do throws(InjectionError) {
                    let first = try await page.run(userScript: script, id: "keeper", host: host)
                    let second = try await page.run(userScript: script, id: "keeper", host: host)
                    let compiled = try? await page.session.executeScript("return window.compiled.join('\\n----\\n')")
                    return .success(([first, second], compiled?.stringValue))
                } catch {
                    return .failure(error)
                }
            }.get()
            await host.shutdown()
            let (results, compiled) = outcome
            #expect(results.map(\.value) == [.string(secret), .string(secret)])
            let problems = results.map { $0.userscript?.problems ?? [] }
            let compiledText = try #require(compiled)
            if withoutDevTools {
                #expect(problems.allSatisfy { $0.contains { $0.contains("with the page's own Function") } }, "\(problems)")
                #expect(compiledText.contains(secret), "chromedriver compiled the run with the page's Function")
            } else {
                #expect(problems.allSatisfy { $0.isEmpty }, "\(problems)")
                #expect(!compiledText.contains(secret) && !compiledText.contains("GM_getValue"), "\(compiledText)")
            }
        }
    }

    /// A session's visits install the runtime under one entry, so that the installation is the
    /// same text in every document (the engine compiles it once). A site whose first page learns
    /// the name and whose next pages put a function or a getter of their own under it first
    /// still gets its scripts run, learns no key, and moves the session to a new entry.
    static let visitOrder = ["learn", "plain", "ambush-getter", "plain", "learn", "ambush-function", "plain"]

    @Test(arguments: PageFixtures.engines)
    func visitsShareAnEntryThatAPageCannotTakeOver(engine: Engine) async throws {
        let learn = """
            sessionStorage.removeItem("entryName");
            var timer = setInterval(function () {
              var names = Object.getOwnPropertyNames(window).filter(function (name) { return name.indexOf("pagescript_") === 0; });
              if (names.length === 0) { return; }
              clearInterval(timer);
              sessionStorage.setItem("entryName", names[0]);
            }, 5);
            """
        let ambushes = [
            "function": "Object.defineProperty(window, name, { value: function planted() { record('planted', planted, arguments); }, configurable: false });",
            "getter": "Object.defineProperty(window, name, { get: function taken() { record('getter', taken, arguments); return undefined; }, configurable: false });",
        ]
        var responses: [String: LoopbackResponse] = [:]
        for (path, script) in [("learn", learn), ("plain", "")] + ambushes.map({ ("ambush-" + $0.key, Self.recorder + "var name = sessionStorage.getItem('entryName'); " + $0.value) }) {
            responses["/\(path)"] = LoopbackResponse(
                html: "<!doctype html><html><head><title>\(path)</title><script src=\"/\(path).js\"></script></head><body></body></html>",
                headers: PageFixtures.strictPolicy)
            responses["/\(path).js"] = LoopbackResponse(body: script, contentType: "text/javascript")
        }
        let server = try LoopbackServer(responses: responses)
        defer { server.stop() }
        typealias Visit = (title: JSONValue?, entry: RuntimeEntry?, leaked: String?)
        let visits = try await PageFixtures.withPage(engine, url: server.url("/plain")) { page -> Result<[Visit], InjectionError> in
            do throws(InjectionError) {
                var visits: [Visit] = []
                for path in Self.visitOrder {
                    let loaded = try await page.openAndRun(server.url("/\(path)"), script: "document.title", timeout: 10)
                    guard case let .ran(result, _) = loaded else { return .failure(.pageInterfered(reason: "\(path) was skipped")) }
                    if path == "learn" {
                        for _ in 0..<100 {
                            if (try? await page.session.executeScript("return sessionStorage.getItem('entryName')"))?.stringValue != nil { break }
                            try? await Task.sleep(nanoseconds: 10_000_000)
                        }
                    }
                    let leaked = try? await page.session.executeScript("return window.leaked ? window.leaked.join('\\n') : null")
                    visits.append((result.value, page.state.read(\.entry), leaked?.stringValue))
                }
                return .success(visits)
            } catch {
                return .failure(error)
            }
        }.get()
        #expect(visits.map(\.title) == Self.visitOrder.map { .string($0) })
        let entries = visits.map(\.entry)
        #expect(entries[0] != nil && entries[0] == entries[1], "the first two visits share an entry")
        for visit in visits {
            for secret in entries.compactMap({ $0 }).flatMap({ [$0.key, $0.response] }) {
                #expect(visit.leaked?.contains(secret) != true, "\(visit)")
            }
        }
        if engine == .webkit {
            // The runtime comes after the page's own scripts: each ambush is in place first.
            #expect(entries[3] != entries[0], "after the getter, later visits leave the taken entry")
            #expect(entries[4] == entries[3], "and share the new one")
            #expect(entries[6] != entries[4], "after the function, too")
        }
    }
}
