import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript browse` on a private Xvfb standing in for the user's display: the pages move by
/// themselves (`location`, then `pushState`), as a user clicking would move them, each once
/// browse has seen the script for it run (so a slow machine cannot skip a page), and exactly the
/// right scripts run, once each.
@Suite(.serialized)
struct BrowseCommandTests {
    /// A running `pagescript browse` and what it printed so far.
    final class Browsing: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var output = ""

        /// `withStandardError`: standard error's lines are read too, among standard output's.
        init(_ arguments: [String], environment: [String: String], withStandardError: Bool = false) throws {
            process.executableURL = URL(fileURLWithPath: PageScriptBinary.path)
            process.arguments = ["browse"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = withStandardError ? pipe : FileHandle.nullDevice
            process.standardInput = Pipe()
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                self?.lock.withLock { self?.output += text }
            }
            try process.run()
        }

        var lines: [String] { lock.withLock { output.split(separator: "\n").map(String.init) } }

        /// Waits until a line satisfies `condition` (at most `seconds`, a guard against a hang).
        func waitFor(seconds: Double = 60, _ condition: (String) -> Bool) -> Bool {
            waitForLines(seconds: seconds) { $0.contains(where: condition) }
        }

        /// Waits until the lines printed so far, taken together, satisfy `condition`.
        func waitForLines(seconds: Double = 60, _ condition: ([String]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(lines) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
    }

    /// What one `pagescript browse` printed, on a private Xvfb, until a line satisfied the
    /// condition (or the time ran out) and it was sent SIGTERM; and what it left running.
    struct BrowseSession {
        let lines: [String]
        let sawTheLine: Bool
        let leftovers: [String]

        /// Runs `pagescript browse arguments` until a printed line satisfies `condition` (at most
        /// `seconds`), then ends it with SIGTERM; `withStandardError` reads standard error's lines too.
        init(_ arguments: [String], seconds: Double = 60, withStandardError: Bool = false, until condition: (String) -> Bool) throws {
            try self.init(arguments, seconds: seconds, withStandardError: withStandardError, untilLines: { $0.contains(where: condition) })
        }

        /// Runs `pagescript browse arguments` until the printed lines, taken together, satisfy
        /// `condition`, as ``init(_:seconds:withStandardError:until:)`` does for one line.
        init(_ arguments: [String], seconds: Double = 60, withStandardError: Bool = false, untilLines condition: ([String]) -> Bool) throws {
            let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
            defer { display.stop() }
            let marker = ProcessProbe.newMarker()
            let browsing = try Browsing(arguments, environment: ["DISPLAY": display.name, marker.name: marker.value],
                                        withStandardError: withStandardError)
            sawTheLine = browsing.waitForLines(seconds: seconds, condition)
            browsing.process.terminate()
            browsing.process.waitUntilExit()
            lines = browsing.lines
            leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        }
    }

    /// A userscript that runs `code` and then tells the page that browse has seen the document:
    /// it sets `window.<flag>` once browse has answered its `GM_xmlhttpRequest`, which happens when
    /// browse collects the run (on Chromium scripts run in the page by themselves, at their
    /// moments, so a page that moved on as soon as its script ran could be gone before browse
    /// looked at it).
    static func seenByBrowse(name: String, matches: [String], setting flags: [String], code: String) -> String {
        "// ==UserScript==\n// @name \(name)\n" + matches.map { "// @match \($0)\n" }.joined()
            + "// @grant GM_xmlhttpRequest\n// @connect self\n// ==/UserScript==\n"
            + "var seen = function () { " + flags.map { "window.\($0) = true; " }.joined() + "};\n"
            + "GM_xmlhttpRequest({ method: 'GET', url: location.href, onload: seen, onerror: seen });\n" + code + "\n"
    }

    @Test(arguments: ["webkit", "chromium"])
    func followsNavigationsAndRunsEachMatchingScriptOnce(engine: String) throws {
        let server = try LoopbackServer(pages: [
            "/": """
                <!doctype html><title>Start</title><script>
                var wait = setInterval(function () { if (window.ranHere) { clearInterval(wait); setTimeout(function () { location.href = '/shop'; }, 1000); } }, 100);
                </script>
                """,
            "/shop": """
                <!doctype html><title>Shop</title><script>
                var wait = setInterval(function () { if (window.ranHere && window.ranSite) { clearInterval(wait); setTimeout(function () { history.pushState({}, '', '/shop/cart'); }, 1000); } }, 100);
                var cart = setInterval(function () { if (window.ranCart) { clearInterval(cart); window.open('/popup'); } }, 100);
                </script>
                """,
            "/popup": """
                <!doctype html><title>Popup</title><script>
                var wait = setInterval(function () { if (window.ranHere) { clearInterval(wait); window.close(); } }, 100);
                </script>
                """,
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-browse-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        for (name, pattern) in [("Start", "\(base)/"), ("Shop", "\(base)/shop"), ("Cart", "\(base)/shop/cart"), ("Popup", "\(base)/popup"),
                                ("Elsewhere", "http://elsewhere.example/*")] {
            let script = Self.seenByBrowse(name: name, matches: [pattern], setting: ["ranHere", "ran\(name)"],
                                           code: "document.title + ' seen by \(name)'")
            let created = try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        // The pages move on a second after their scripts ran, Site's too (a pushState between a
        // document's scripts is LibraryCommandTests'; a page that leaves as its script's request
        // is answered, workQueuedAsThePageIsLeftIsNotLost's).
        #expect(try PageScriptBinary.run(["scripts", "new", "Site", "--match", "\(base)/shop*", "-e", "window.ranSite = true; 'site'", "--library", library]).status == 0)
        // A userscript that writes a value from a timer, after its run has ended: browse serves it,
        // on Chromium also while it follows the popup below (in the background) or after it came
        // back to the cart's window (through the runtime it kept).
        let later = "// ==UserScript==\n// @name Later\n// @match \(base)/shop\n// @grant GM_setValue\n// ==/UserScript==\n"
            + "setTimeout(function () { GM_setValue('late', 42); }, 3000); 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", later, "--library", library]).status == 0)
        // Tampermonkey's urlchange: registered before the page's pushState (document-end runs
        // before the document-idle scripts whose run sets it off), told the new address. The
        // pushState runs nothing in the document (neither Cart, which matches only the new
        // address, nor Site, which matches both, again): the urlchange event tells the page
        // browse has seen it.
        let watcher = "// ==UserScript==\n// @name Watcher\n// @match \(base)/shop\n// @run-at document-end\n// @grant window.onurlchange\n"
            + "// @grant GM_setValue\n// ==/UserScript==\n"
            + "if (window.onurlchange === null) { window.addEventListener('urlchange', function (change) { GM_setValue('url', change.url); window.ranCart = true; }); } 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", watcher, "--library", library]).status == 0)
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let browsing = try Browsing([server.url("/"), "--engine", engine, "--library", library],
                                    environment: ["DISPLAY": display.name, marker.name: marker.value])
        let sawCart = browsing.waitFor { $0 == "page\t\(base)/shop/cart\tShop" }
        // The cart opens a window (WebKit's MiniBrowser blocks window.open without a user gesture).
        // Its script runs whether or not browse has moved to it yet (in the background), and the
        // window closes itself once browse has run it; when browse had moved to it, it follows
        // the cart's window again.
        let popupRan = { (line: String) in (line.hasPrefix("ran\t") || line.hasPrefix("background\t")) && line.contains("\tPopup\t") }
        let sawPopup = engine == "webkit" || browsing.waitFor(seconds: 20, popupRan)
        let followedPopup = browsing.lines.contains { $0.hasPrefix("page\t\(base)/popup") }
        let sawReturn = !followedPopup || browsing.waitFor(seconds: 20) { $0 == "window\t\(base)/shop/cart\tShop" }
        // The timer's value is served on a look at the window it was set in; on a loaded machine
        // that can take a while after the return, so wait for it rather than for a fixed time.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? PageScriptBinary.run(["scripts", "values", "Later", "--library", library]))?.standardOutput != "late\t42\n" {
            Thread.sleep(forTimeInterval: 0.25)
        }
        browsing.process.terminate()
        browsing.process.waitUntilExit()
        let lines = browsing.lines
        #expect(sawCart, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("page\t\(server.url("/"))\tStart") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tStart\t") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tShop\t") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Shop seen by Shop\"") }, "\(lines)")
        #expect(!lines.contains { $0.contains("\tCart\t") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tSite\t") }.count == 1, "\(lines)")
        #expect(!lines.contains { $0.contains("Elsewhere") }, "\(lines)")
        #expect(sawPopup && sawReturn, "\(lines)")
        // Once when it ran; once more when browse came to the window while the page was there.
        let popupLines = lines.filter(popupRan).map { $0.prefix { $0 != "\t" } }
        #expect(engine == "webkit" ? popupLines.isEmpty : (1...2).contains(popupLines.count) && Set(popupLines).count == popupLines.count, "\(lines)")
        #expect(browsing.process.terminationStatus == 128 + SIGTERM)
        let values = try PageScriptBinary.run(["scripts", "values", "Later", "--library", library])
        #expect(values.standardOutput == "late\t42\n", "\(values.standardError)")
        let watched = try PageScriptBinary.run(["scripts", "values", "Watcher", "--library", library])
        #expect(watched.standardOutput.contains("\(base)/shop/cart"), "\(watched.standardOutput) \(watched.standardError)")
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after browse: \(leftovers)")
    }

    /// Back to a page the browser kept (its back/forward cache restores the same document, with
    /// what the script added): browse reports the page again and runs nothing there, as a manager
    /// runs a script once per document; a page that was loaded afresh runs its scripts again.
    @Test(arguments: ["webkit", "chromium"])
    func backToAKeptPageRunsNothingAgain(engine: String) throws {
        let server = try LoopbackServer(pages: [
            "/": """
                <!doctype html><title>Home</title><script>
                addEventListener('pageshow', function (event) { if (event.persisted) { document.title = 'Home kept'; } });
                var wait = setInterval(function () { if (window.ranHome) { clearInterval(wait); setTimeout(function () { location.href = '/next'; }, 1000); } }, 100);
                </script>
                """,
            "/next": """
                <!doctype html><title>Next</title><script>
                var wait = setInterval(function () { if (window.ranNext) { clearInterval(wait); setTimeout(function () { history.back(); }, 1000); } }, 100);
                </script>
                """,
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-back-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        let banner = "document.body.insertAdjacentHTML('beforeend', '<p class=banner>banner</p>');\n"
            + "document.querySelectorAll('.banner').length + ' banner(s)'"
        let home = Self.seenByBrowse(name: "Home", matches: ["\(base)/"], setting: ["ranHome"], code: banner)
        let next = Self.seenByBrowse(name: "Next", matches: ["\(base)/next"], setting: ["ranNext"], code: "'next'")
        for script in [home, next] {
            #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        }
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let browsing = try Browsing([server.url("/"), "--engine", engine, "--library", library],
                                    environment: ["DISPLAY": display.name, marker.name: marker.value])
        // Back is seen when the start page shows a second time; a run there would follow within a
        // look or two.
        let sawBack = browsing.waitFor { _ in
            browsing.lines.filter { $0.hasPrefix("page\t\(base)/\t") || $0.hasPrefix("back\t\(base)/\t") }.count >= 2
        }
        Thread.sleep(forTimeInterval: 3)
        browsing.process.terminate()
        browsing.process.waitUntilExit()
        let lines = browsing.lines
        #expect(sawBack, "\(lines)")
        let homeRuns = lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tHome\t") }
        let kept = lines.contains { $0.hasSuffix("\tHome kept") }
        if kept {
            #expect(lines.contains { $0 == "back\t\(base)/\tHome kept" }, "\(lines)")
            #expect(homeRuns.count == 1 && homeRuns.allSatisfy { $0.hasSuffix("\t\"1 banner(s)\"") }, "\(lines)")
        } else {
            // Loaded afresh: a new document, whose script runs once more, on a page of its own.
            #expect(homeRuns.count == 2 && homeRuns.allSatisfy { $0.hasSuffix("\t\"1 banner(s)\"") }, "\(lines)")
        }
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tNext\t") }.count == 1, "\(lines)")
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after browse: \(leftovers)")
    }

    /// A script that writes values and then leaves the page at once (a setting saved before a
    /// reload, a link it follows), and writes values as the page is left, then on the next page
    /// one that makes a request as that page is left: browse writes the values and makes the
    /// request, though each document is gone before browse could look at it again. A value
    /// written at `beforeunload` is kept on both engines, at `pagehide` on WebKit (a call pending
    /// in Chromium is abandoned before that event).
    @Test(arguments: ["webkit", "chromium"])
    func workQueuedAsThePageIsLeftIsNotLost(engine: String) throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>Start</title>", "/next": "<!doctype html><title>Next</title>",
            "/last": "<!doctype html><title>Last</title>", "/beacon": "<title>ok</title>",
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-leaving-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        // Browse has collected a run once it has answered its first request; as soon as the answer
        // has reached it (on WebKit, whose driver takes one call at a time, the call that delivers
        // it must wait on in the page: one made after it would find the page gone) the script
        // writes (or asks) and leaves in one go.
        func leaving(_ name: String, from path: String, to next: String, code: String) -> String {
            "// ==UserScript==\n// @name \(name)\n// @match \(base)\(path)\n// @grant GM_setValue\n// @grant GM_xmlhttpRequest\n"
                + "// @connect self\n// ==/UserScript==\n" + code
                + "GM_xmlhttpRequest({ method: 'GET', url: location.href, onload: function () { setTimeout(function () {\n"
                + "  GM_setValue('left', location.pathname); GM_setValue('count', 2); location.href = '\(next)';\n"
                + "}, 0); } });\n'leaving \(path)'\n"
        }
        let writer = leaving("Writer", from: "/", to: "/next", code: """
            addEventListener('beforeunload', function () { GM_setValue('unloading', location.pathname); });
            addEventListener('pagehide', function () { GM_setValue('hidden', location.pathname); });

            """)
        // A request ends the wait at once, so it is made at the last event the engine hands over.
        let lastEvent = engine == "webkit" ? "pagehide" : "beforeunload"
        let asker = leaving("Asker", from: "/next", to: "/last", code: """
            addEventListener('\(lastEvent)', function () { GM_xmlhttpRequest({ method: 'GET', url: '/beacon?left' }); });

            """)
        for script in [writer, asker] {
            #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        }
        #expect(try PageScriptBinary.run(["scripts", "new", "Last", "--match", "\(base)/last", "-e", "document.title", "--library", library]).status == 0)
        let browse = try BrowseSession([server.url("/"), "--engine", engine, "--library", library]) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Last\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        for path in ["/", "/next"] {
            #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"leaving \(path)\"") }, "\(lines)")
        }
        let values = try PageScriptBinary.run(["scripts", "values", "Writer", "--library", library])
        let written = Set(values.standardOutput.split(separator: "\n").map(String.init))
        let expected: Set<String> = ["count\t2", "left\t\"/\"", "unloading\t\"/\""]
        #expect(engine == "webkit" ? written == expected.union(["hidden\t\"/\""]) : written.subtracting(["hidden\t\"/\""]) == expected,
                "\(values.standardOutput) \(values.standardError) \(lines)")
        #expect(server.requestedPaths.contains("/beacon?left"), "\(server.requestedPaths)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// A value written as the page is left is kept though the answer to a request the script
    /// made just before could not reach the page any more: the script asks a slow server, and
    /// leaves before the answer comes; what it writes at `beforeunload` reaches browse in a wait
    /// of its own, which the failed delivery of that answer does not drop (Chromium), or which
    /// is in the page while the request is made (WebKit, whose calls cannot overlap).
    @Test(arguments: [Engine.chromium, .webkit])
    func aValueWrittenAsThePageIsLeftOutlivesAnAnswerThatCameTooLate(_ engine: Engine) throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<!doctype html><title>Start</title>"), "/next": LoopbackResponse(html: "<!doctype html><title>Next</title>"),
            "/slow": LoopbackResponse(body: "late", contentType: "text/plain", delay: 1),
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-late-answer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        // Once browse has collected the run (a second after it, so that a wait is in place), the
        // script asks the slow server and leaves a moment later.
        let script = "// ==UserScript==\n// @name Leaver\n// @match \(base)/\n// @grant GM_setValue\n// @grant GM_xmlhttpRequest\n"
            + "// @connect self\n// ==/UserScript==\n"
            + "addEventListener('beforeunload', function () { GM_setValue('unloading', location.pathname); });\n"
            + "setTimeout(function () {\n"
            + "  GM_xmlhttpRequest({ method: 'GET', url: '/slow', onload: function () { GM_setValue('answered', true); } });\n"
            + "  setTimeout(function () { location.href = '/next'; }, 50);\n"
            + "}, 1000);\n'asked'\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        #expect(try PageScriptBinary.run(["scripts", "new", "Next", "--match", "\(base)/next", "-e", "document.title", "--library", library]).status == 0)
        let browse = try BrowseSession([server.url("/"), "--engine", engine.rawValue, "--library", library]) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Next\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        // Past the slow answer's second: a late answer would have been served by now.
        Thread.sleep(forTimeInterval: 1.5)
        let values = try PageScriptBinary.run(["scripts", "values", "Leaver", "--library", library])
        #expect(values.standardOutput == "unloading\t\"/\"\n", "\(values.standardOutput) \(values.standardError) \(lines)")
        #expect(server.requestedPaths.contains("/slow"), "\(server.requestedPaths)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// On Chromium, browse runs `document-start` scripts before the page's own first script, in
    /// the first page and in a popup it opens on another origin (a new tab, prepared before its
    /// first document), each once, with their GM API served, and only where they match.
    /// (A popup on the opener's own origin keeps the window of its first, empty document, so
    /// what runs on new documents has run there already: its scripts run after the load.)
    @Test func documentStartScriptsRunBeforeThePagesOwnInEveryTab() throws {
        let probe = "document.title = (window.startedEarly ? 'early first' : 'page first') + ' on ' + location.pathname;"
        let server = try LoopbackServer(pages: [
            "/": """
                <!doctype html><title>Home</title><script>\(probe)
                var wait = setInterval(function () { if (window.ranIdle) { clearInterval(wait); window.open(location.href.replace('127.0.0.1', 'localhost') + 'popup'); } }, 100);
                </script>
                """,
            "/popup": """
                <!doctype html><title>Popup</title><script>\(probe)
                var wait = setInterval(function () { if (window.ranIdle) { clearInterval(wait); location.href = '/unmatched'; } }, 100);
                </script>
                """,
            "/unmatched": "<!doctype html><title>Unmatched</title><script>\(probe)</script>",
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-start-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        let other = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let early = "// ==UserScript==\n// @name Early\n// @match \(base)/\n// @match \(other)/popup\n// @run-at document-start\n"
            + "// @grant GM_setValue\n// ==/UserScript==\n"
            + "window.startedEarly = true; GM_setValue('state ' + location.pathname, document.readyState); 'early at ' + location.pathname\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", early, "--library", library]).status == 0)
        let idle = Self.seenByBrowse(name: "Idle", matches: ["\(base)/*", "\(other)/*"], setting: ["ranIdle"], code: "document.title")
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", idle, "--library", library]).status == 0)
        let browse = try BrowseSession([server.url("/"), "--engine", "chromium", "--library", library]) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("on /unmatched\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"early at /\"") }.count == 1, "\(lines)")
        // The popup's runs are collected as it loads, in the background unless browse already
        // follows it (then `ran`); browse reports them again as `ran` if it follows the popup
        // before the popup moves on. So: once or twice, never twice the same way.
        func reports(_ suffix: String) -> [Substring] {
            lines.filter { ($0.hasPrefix("ran\t") || $0.hasPrefix("background\t")) && $0.hasSuffix(suffix) }.map { $0.prefix { $0 != "\t" } }
        }
        let popupEarly = reports("\t\"early at /popup\"")
        #expect((1...2).contains(popupEarly.count) && Set(popupEarly).count == popupEarly.count, "\(lines)")
        #expect(lines.filter { $0.contains("\tEarly\t") }.count == 1 + popupEarly.count, "\(lines)")
        // The page's own first script saw what the document-start script set, in both tabs.
        #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"early first on /\"") }, "\(lines)")
        #expect(!reports("\t\"early first on /popup\"").isEmpty, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"page first on /unmatched\"") }, "\(lines)")
        // Its GM_setValue calls were served, made while the documents were still loading.
        let values = try PageScriptBinary.run(["scripts", "values", "Early", "--library", library])
        #expect(values.standardOutput == "state /\t\"loading\"\nstate /popup\t\"loading\"\n", "\(values.standardOutput) \(values.standardError)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// On Chromium, scripts run in tabs browse does not follow: once browse has seen it, the start
    /// page opens two tabs at once, browse follows one of them, and each tab waits for the other's
    /// document-idle script, which in the tab not followed can only have run without the follower,
    /// and have had its `GM_xmlhttpRequest` answered and its later `GM_setValue` written in the
    /// background. Each ran exactly once per document: the follower takes over what ran in the tab
    /// it comes to and runs none of it again. On another origin each tab is a tab of its own from
    /// its first document, so its scripts run in the page at their moments; on the opener's origin
    /// a tab keeps the window of its first, empty document, so they are run when it has loaded.
    @Test(arguments: [false, true])
    func scriptsRunInTabsBrowseDoesNotFollow(onTheOpenersOrigin sameOrigin: Bool) throws {
        let server = try LoopbackServer(pages: [
            "/": """
                <!doctype html><title>Home</title><script>
                var other = \(sameOrigin ? "location.origin" : "location.origin.replace('127.0.0.1', 'localhost')");
                var wait = setInterval(function () {
                  if (window.ranHome) { clearInterval(wait); window.open(other + '/tab?a'); window.open(other + '/tab?b'); }
                }, 100);
                </script>
                """,
            "/tab": """
                <!doctype html><title>Tab</title><script>
                var me = location.search.slice(1), other = me === 'a' ? 'b' : 'a', waited = 0;
                var wait = setInterval(function () {
                  waited += 100;
                  var both = localStorage.getItem('ran ' + me) && localStorage.getItem('ran ' + other);
                  if (waited < 15000 && (!both || waited < 3000)) { return; }
                  clearInterval(wait);
                  location.href = '/done?' + me + '=' + localStorage.getItem('ran ' + me) + '&' + other + '=' + localStorage.getItem('ran ' + other);
                }, 100);
                </script>
                """,
            "/done": "<!doctype html><title>Done</title>",
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-tabs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = String(server.url("/").dropLast())
        let other = sameOrigin ? base : base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        // The count goes up when browse has answered the script's request, a timer writes a value
        // after the run, and another is written as the tab moves on: in the tab browse does not
        // follow, all are served in the background.
        let counting = "// ==UserScript==\n// @name Tab\n// @match \(other)/tab*\n// @grant GM_xmlhttpRequest\n// @grant GM_setValue\n"
            + "// @connect self\n// ==/UserScript==\n"
            + "var me = location.search.slice(1), key = 'ran ' + me;\n"
            + "GM_xmlhttpRequest({ method: 'GET', url: location.href, onload: function () {\n"
            + "  localStorage.setItem(key, String(Number(localStorage.getItem(key)) + 1)); } });\n"
            + "setTimeout(function () { GM_setValue('late ' + me, me); }, 1000);\n"
            + "addEventListener('beforeunload', function () { GM_setValue('leaving ' + me, me); });\nkey\n"
        let home = Self.seenByBrowse(name: "Home", matches: [server.url("/")], setting: ["ranHome"], code: "1")
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", home, "--library", library]).status == 0)
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", counting, "--library", library]).status == 0)
        #expect(try PageScriptBinary.run(["scripts", "new", "Done", "--match", "\(other)/done*", "-e", "location.search", "--library", library]).status == 0)
        // Until both tabs have reached Done (the followed one's run, the other's in the
        // background): the tab not followed may leave its page after the followed one, and what
        // its script writes as it leaves is handed over only then.
        let browse = try BrowseSession([server.url("/"), "--engine", "chromium", "--library", library], untilLines: { lines in
            lines.contains { $0.hasPrefix("ran\t") && $0.contains("\tDone\t") } && lines.filter { $0.contains("\tDone\t") }.count >= 2
        })
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        let done = lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tDone\t") }
        // Both tabs' scripts ran, once each, before the followed tab moved on.
        #expect(done.count == 1 && done.allSatisfy { ["\t\"?a=1&b=1\"", "\t\"?b=1&a=1\""].contains(where: $0.hasSuffix) }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("ran\t") && $0.contains("\tTab\t") }.count == 1, "\(lines)")
        // The other tab's run was collected in the background as its page loaded (and so may the
        // followed tab's have been, when it loaded before browse moved to it).
        for tab in ["a", "b"] {
            #expect(lines.contains { ($0.hasPrefix("ran\t") || $0.hasPrefix("background\t")) && $0.hasSuffix("\t\"ran \(tab)\"") }, "\(lines)")
        }
        #expect(lines.filter { $0.hasPrefix("background\t") && $0.contains("\tTab\t") }.count <= 2, "\(lines)")
        let values = try PageScriptBinary.run(["scripts", "values", "Tab", "--library", library])
        #expect(values.standardOutput.split(separator: "\n").sorted() == ["late a\t\"a\"", "late b\t\"b\"", "leaving a\t\"a\"", "leaving b\t\"b\""],
                "\(values.standardOutput) \(values.standardError) \(lines)")
        // Each value went to the script that wrote it: none to the start page's script, whose run
        // in the follower's own session may have the ID a run in a background tab's session had.
        let homeValues = try PageScriptBinary.run(["scripts", "values", "Home", "--library", library])
        #expect(homeValues.standardOutput.isEmpty, "\(homeValues.standardOutput) \(homeValues.standardError)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// `GM_openInTab` in browse opens a real tab, in front, and browse follows it: the scripts
    /// for the opened page run there. A `javascript:` address is not opened.
    @Test(arguments: ["webkit", "chromium"])
    func gmOpenInTabOpensATabThatIsFollowed(engine: String) throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Home</title>", "/opened": "<!doctype html><title>Opened</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-tab-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        let opener = "// ==UserScript==\n// @name Opener\n// @match \(base)/\n// @grant GM_openInTab\n// ==/UserScript==\n"
            + "GM_openInTab('javascript:alert(1)'); GM_openInTab('/opened'); 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", opener, "--library", library]).status == 0)
        #expect(try PageScriptBinary.run(["scripts", "new", "Seen", "--match", "\(base)/opened", "-e", "document.title + ' seen'",
                                          "--library", library]).status == 0)
        let browse = try BrowseSession([server.url("/"), "--engine", engine, "--library", library], seconds: 40) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"Opened seen\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("tab\t") } == ["tab\t\(base)/opened"], "\(lines)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// One script in two tabs of a browse: the first tab's `GM_addValueChangeListener` hears its
    /// own write with `remote` false and, on Chromium, where the tab left behind is served in the
    /// background, the second tab's writes with `remote` true, and nothing once it removed the
    /// listener (on WebKit that tab waits for browse to come back); the tab object the first tab
    /// saved (`GM_saveTab`) is in the second tab's `GM.getTabs()`, and the second tab's own
    /// (`GM_getTab`) is still there after that tab went on to another page.
    @Test(arguments: ["webkit", "chromium"])
    func valueListenersAndTabObjectsReachAcrossTabs(engine: String) throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>A</title>", "/b": "<!doctype html><title>B</title>",
                                                "/b2": "<!doctype html><title>B2</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-tabs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let base = server.url("/").dropLast()
        let grants = ["GM_saveTab", "GM_getTab", "GM_getTabs", "GM.getTabs", "GM_setValue", "GM_addValueChangeListener",
                      "GM_removeValueChangeListener", "GM_openInTab"]
        let script = "// ==UserScript==\n// @name Tabs\n// @match \(base)/*\n" + grants.map { "// @grant \($0)\n" }.joined() + "// ==/UserScript==\n" + """
            var names = function (tabs) { return Object.keys(tabs).map(function (id) { return tabs[id].name; }).sort().join(','); };
            var result = 'A';
            if (location.pathname === '/') {
                GM_saveTab({ name: 'A' });
                var id = GM_addValueChangeListener('count', function (key, old, now, remote) {
                    console.log('heard ' + key + ' ' + old + '>' + now + ' ' + remote);
                    if (now === 2) { GM_removeValueChangeListener(id); }
                });
                GM_setValue('count', 0);
                GM_openInTab('/b');
            } else if (location.pathname === '/b') {
                GM_saveTab({ name: 'B' });
                GM_setValue('count', 1);
                setTimeout(function () { GM_setValue('count', 2); setTimeout(function () { location.href = '/b2'; }, 1500); }, 1500);
                result = GM.getTabs().then(names);
            } else {
                GM_setValue('count', 3);
                result = new Promise(function (done) {
                    GM_getTab(function (tab) { GM_getTabs(function (tabs) { setTimeout(function () { done(tab.name + ' ' + names(tabs)); }, 1500); }); });
                });
            }
            result

            """
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        let browse = try BrowseSession([server.url("/"), "--engine", engine, "--library", library], seconds: 60, withStandardError: true) {
            $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"B A,B\"")
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\(base)/b\t\"A,B\"") }, "\(lines)")
        let heard = lines.filter { $0.contains("heard count") }
        #expect(heard.count == (engine == "chromium" ? 3 : 1), "\(lines)")
        #expect(heard.first?.hasSuffix("heard count undefined>0 false") == true, "\(lines)")
        if engine == "chromium" {
            #expect(heard.contains { $0.hasSuffix("heard count 0>1 true") }, "\(lines)")
            #expect(heard.contains { $0.hasSuffix("heard count 1>2 true") }, "\(lines)")
        }
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }

    /// `GM_notification` and `GM_setClipboard` in `browse`, on a display with a notification
    /// daemon: a private D-Bus session bus and a real dunst on the test's own Xvfb. The script's
    /// two notifications share a tag: the second replaces the first (whose `ondone` gets false),
    /// and a third closes unclicked after its `timeout`. The test sees the `Notify` calls on the
    /// bus (page text as data, its markup escaped), clicks the newest with `dunstctl action`, and
    /// the script's `onclick` and `ondone(true)` run in the page; their `data:` image reaches the
    /// daemon as a file, removed once answered. The HTML the script put on the clipboard is read
    /// back from the display with `xclip`. WebKit: the display side is the same on every engine,
    /// and WebKit's late work goes through the plain WebDriver path every engine has.
    @Test func gmNotificationIsShownAndItsClickReachesTheScript() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Home</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-notify-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let script = "// ==UserScript==\n// @name Notifier\n// @match \(server.url("/"))\n// @grant GM_notification\n// @grant GM_setClipboard\n// ==/UserScript==\n"
            + "var dot = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';\n"
            + "function note(name) { GM_notification({ title: 'Greeting', text: name + ' <b>bold</b>', tag: 'one', image: dot,"
            + " onclick: function () { console.log('clicked ' + name); }, ondone: function (clicked) { console.log('done ' + name + ' ' + clicked); } }); }\n"
            + "GM_setClipboard('<i>copied</i> by the script', 'html');\n"
            + "GM_notification({ text: 'brief', tag: 'brief', timeout: 300, ondone: function (clicked) { console.log('done brief ' + clicked); } });\n"
            + "note('first'); setTimeout(function () { note('second'); }, 500); 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)

        let desktop = try NotificationDesktop()
        defer { desktop.stop() }
        let (display, calls) = (desktop.display, desktop.calls)

        let marker = ProcessProbe.newMarker()
        let browsing = try Browsing([server.url("/"), "--engine", "webkit", "--library", library],
                                    environment: desktop.environment.merging([marker.name: marker.value]) { $1 },
                                    withStandardError: true)
        #expect(browsing.waitFor(seconds: 60) { $0.contains("done first false") }, "\(browsing.lines)")
        #expect(browsing.waitFor(seconds: 10) { $0.contains("done brief false") }, "\(browsing.lines)")
        // The second Notify names the first's ID to replace; the body's markup is escaped.
        #expect(calls.waitFor(seconds: 10) { $0.contains("second &lt;b&gt;bold&lt;/b&gt;") }, "\(calls.lines)")
        let notified = calls.lines.filter { $0.contains("string \"Greeting\"") }
        #expect(notified.count == 2 && calls.lines.contains { $0.contains("string \"brief\"") }, "\(calls.lines)")
        // The data: image goes as a file of browse's own, removed once the notification is answered.
        let image = calls.lines.last { $0.contains("/pagescript-notifications-") && $0.hasSuffix(".png\"") }
            .flatMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
        #expect(image.map { FileManager.default.fileExists(atPath: $0) } == true, "\(calls.lines)")
        let click = try desktop.clickNewest()
        #expect(click.exitStatus() == 0, "\(click.lines)")
        #expect(browsing.waitFor(seconds: 20) { $0.contains("done second true") }, "\(browsing.lines)")
        #expect(image.map { FileManager.default.fileExists(atPath: ($0 as NSString).deletingLastPathComponent) } == false)
        let pasted = try LineReader("/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "text/html"], environment: ["DISPLAY": display.name])
        #expect(pasted.exitStatus() == 0)
        #expect(pasted.lines == ["<i>copied</i> by the script"], "\(pasted.lines)")
        browsing.process.terminate()
        browsing.process.waitUntilExit()
        let lines = browsing.lines
        let clicked = lines.firstIndex { $0.contains("clicked second") }, done = lines.firstIndex { $0.contains("done second true") }
        #expect(clicked != nil && done != nil && clicked! < done!, "\(lines)")
        #expect(!lines.contains { $0.contains("clicked first") }, "\(lines)")
        #expect(!lines.contains { $0.contains("are reported, not") }, "\(lines)")
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after browse: \(leftovers)")
    }

    /// `--attach` to a Chromium the test started as a user would (a debugging port, a profile
    /// folder of its own): browse stays on the page the browser shows, runs the matching script
    /// there, and after SIGTERM the browser still runs with its tab, as the script left it (seen
    /// through a second attach).
    @Test func attachedChromiumRunsScriptsAndIsLeftRunning() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Yours</title><p>your page</p>"])
        defer { server.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-attach-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let library = scratch + "/library", profile = scratch + "/profile"
        let code = "document.title = 'Seen by PageScript'; 'ran in your browser'"
        #expect(try PageScriptBinary.run(["scripts", "new", "Mine", "--match", "\(server.url("/").dropLast())/*", "-e", code, "--library", library]).status == 0)
        let chromium = Process()
        chromium.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        chromium.arguments = ChromiumLauncher.arguments() + ["--remote-debugging-port=0", "--user-data-dir=\(profile)", server.url("/")]
        chromium.standardOutput = FileHandle.nullDevice
        chromium.standardError = FileHandle.nullDevice
        // Chromium's own temporary folders go in a folder of the test's, not in the system's (a
        // short path: Chromium's SingletonSocket in it must fit a socket address).
        let temporary = try TemporaryDirectory("ct")
        let browserMarker = ProcessProbe.newMarker()
        chromium.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path, browserMarker.name: browserMarker.value]) { $1 }
        try chromium.run()
        defer {
            withExtendedLifetime(temporary) {
                chromium.terminate()
                chromium.waitUntilExit()
                // Its helpers can outlive it for a moment and still write to the profile, which
                // would then outlive the scratch folder's removal.
                for _ in 0..<100 where !ProcessProbe.processes(withEnvironment: browserMarker.name, value: browserMarker.value).isEmpty {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        // Chromium writes the port it chose on the first line of DevToolsActivePort.
        var port: String?
        for _ in 0..<300 where port == nil {
            port = (try? String(contentsOfFile: profile + "/DevToolsActivePort", encoding: .utf8))?.split(separator: "\n").first.map(String.init)
            if port == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let address = "127.0.0.1:\(try #require(port))"
        let marker = ProcessProbe.newMarker()
        let browsing = try Browsing(["--attach", address, "--library", library], environment: ["DISPLAY": "", marker.name: marker.value])
        let ran = browsing.waitFor { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"ran in your browser\"") }
        browsing.process.terminate()
        browsing.process.waitUntilExit()
        #expect(ran, "\(browsing.lines)")
        #expect(browsing.process.terminationStatus == 128 + SIGTERM)
        #expect(ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).isEmpty)
        #expect(chromium.isRunning)
        let engine = try await BrowserEngine.start(.chromium, options: LaunchOptions(attachAddress: address))
        let session = try await engine.newSession(timeout: 30)
        let title = try? await session.title(timeout: 10)
        let tab = try? await session.currentURL(timeout: 10)
        await session.delete()
        await engine.stop()
        #expect(title == "Seen by PageScript")
        #expect(tab == server.url("/"))
        #expect(chromium.isRunning)
    }

    @Test func withoutADisplayItSaysSo() throws {
        let outcome = try PageScriptBinary.run(["browse", "--engine", "chromium"], environment: ["DISPLAY": ""])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("$DISPLAY is not set"), "\(outcome.standardError)")
    }
}
