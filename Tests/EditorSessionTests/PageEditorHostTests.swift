@testable import EditorSession
import Engines
import Foundation
import GMAPI
import PageRuntime
import ScriptConsole
import SystemSupport
import TerminalUI
import TestSupport
import Testing
import TextInput
import UserScripts

/// The editor's host for a page, against a real library folder and, where it runs scripts, a
/// real page in WebKit.
@Suite(.serialized)
struct PageEditorHostTests {
    @Test func theEditorStartsWithTheSiteScriptKeepingItsBlankLines() throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = "http://127.0.0.1:8080/orders"
        let empty = PageEditorHost.initialScript(library: folder.library, pageURL: page, loaded: LoadedScripts())
        #expect(empty.code == "")
        #expect(empty.document.id == nil)
        #expect(empty.document.title == "Site script for 127.0.0.1:8080")

        _ = try folder.library.saveForSite(url: PageURL(page), code: "\n\nfirst()\n\n\nsecond()\n")
        let opened = PageEditorHost.initialScript(library: folder.library, pageURL: page, loaded: LoadedScripts())
        // The blank line the library puts after the metadata block is not the user's; every
        // other one is.
        #expect(opened.code == "\n\nfirst()\n\n\nsecond()\n")
        #expect(opened.document.id != nil)
        // Another port is another site.
        #expect(PageEditorHost.initialScript(library: folder.library, pageURL: "http://127.0.0.1:8081/orders", loaded: LoadedScripts()).code == "")
    }

    /// Issue 19: saving keeps the user's blank lines, and the file reads back as written.
    @Test func savingKeepsBlankLinesAndRoundTrips() throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = "http://127.0.0.1:8080/"
        let loaded = LoadedScripts()
        let start = PageEditorHost.initialScript(library: folder.library, pageURL: page, loaded: loaded)
        let code = "\n\nlet a = 1;\n\n\nlet b = 2;\n\n"
        let first = try PageEditorHost.save(code, into: start.document, pageURL: page, library: folder.library, loaded: loaded)
        let again = PageEditorHost.initialScript(library: folder.library, pageURL: page, loaded: LoadedScripts())
        #expect(again.code == code)
        let second = try PageEditorHost.save(code, into: first.document, pageURL: page, library: folder.library, loaded: loaded)
        let stored = try folder.library.script(id: ScriptID(try #require(second.document.id)))
        #expect(stored.script.body == "\n" + code)
    }

    /// Issue 18, item 1: a file changed by another program since the editor read it is not
    /// overwritten; the save reports a conflict with the file's code.
    @Test func aSaveOverAnOutsideChangeIsAConflict() throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = "http://127.0.0.1:8080/"
        let saved = try folder.library.saveForSite(url: PageURL(page), code: "original()\n")
        let loaded = LoadedScripts()
        let start = PageEditorHost.initialScript(library: folder.library, pageURL: page, loaded: loaded)
        let path = saved.file.path(percentEncoded: false)
        let outside = try String(contentsOfFile: path, encoding: .utf8) + "outside()\n"
        try outside.write(toFile: path, atomically: false, encoding: .utf8)

        do {
            _ = try PageEditorHost.save("mine()\n", into: start.document, pageURL: page, library: folder.library, loaded: loaded)
            Issue.record("the outside change was overwritten")
        } catch let conflict as ScriptConflict {
            #expect(conflict.change == .changed(theirs: "original()\noutside()\n"))
            #expect(conflict.path == path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == outside)

        try FileManager.default.removeItem(atPath: path)
        do {
            _ = try PageEditorHost.save("mine()\n", into: start.document, pageURL: page, library: folder.library, loaded: loaded)
            Issue.record("a deleted script was written again")
        } catch let conflict as ScriptConflict {
            #expect(conflict.change == .deleted)
        }
    }

    /// Issue 18, item 2: Ctrl-S on a named script writes into that script, never the site's.
    @Test func aNamedScriptIsSavedIntoItself() async throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = "http://127.0.0.1:8080/"
        let site = try folder.library.saveForSite(url: PageURL(page), code: "site()\n")
        let named = try folder.library.create(UserScript.make(name: "Word count", matches: ["http://127.0.0.1/*"], body: "count()\n"))
        let loaded = LoadedScripts()
        let opened = loaded.remember(try folder.library.script(id: named.id))
        #expect(opened.document.title == "Script “Word count”")
        let receipt = try PageEditorHost.save("count(2)\n", into: opened.document, pageURL: page, library: folder.library, loaded: loaded)
        #expect(receipt.document.id == named.id.rawValue)
        #expect(try folder.library.script(id: named.id).script.body.hasSuffix("count(2)\n"))
        #expect(try folder.library.script(id: site.id).script.body.hasSuffix("site()\n"))
    }

    /// What the host gave for each key, collected on the page and checked after it closed.
    struct HostAnswers: Sendable {
        var ran: ScriptRunResult?
        var thrown: ScriptRunResult?
        var userScript: ScriptRunResult?
        var busyAfterwards = true
        var receipt: SaveReceipt?
        var examples: [ScriptExample] = []
        var summaries: [ScriptSummary] = []
        var opened: OpenedScript?
        var reloaded: PageInfo?
        var failure: String?
        var form: ScriptFormSettings?
        var counts: [ScriptRunResult] = []
        var lateValue: JSONValue?
    }

    /// The editor's page on WebKit, replaced by a new browser on the same engine when stuck.
    static func editorPage(_ url: String, scriptTimeout: Double) async throws -> EditorPage {
        let opened = try await PageRunner.open(on: .local(.webkit), url: url, scriptTimeout: scriptTimeout)
        return EditorPage(opened) { address throws(PageRunner.Failure) in
            try await PageRunner.open(on: .local(.webkit), url: address, scriptTimeout: scriptTimeout)
        }
    }

    /// Issue 18, item 15: an endless loop that outlasts its timeout leaves the page deaf; the
    /// editor replaces it and says so, and the next run works. Cancelling a run does the same.
    @Test func aStuckPageIsReplacedAndTheNextRunWorks() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Stuck page</title>"])
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = try await Self.editorPage(server.url(), scriptTimeout: 2)
        let turn = PageTurn()
        let session = PageEditorHost.UserScriptSession(
            host: GMHost(libraryDirectory: folder.library.directory), turn: turn, lateWork: LateWorkServer(page: page, turn: turn))
        let notices = NoticeLog()
        let host = PageEditorHost.make(page: page, pageURL: server.url(), library: folder.library, loaded: LoadedScripts(), busy: BusyFlag(),
                                       session: session, notify: { notices.record($0) })
        let firstSession = page.page.session
        var timeout: String?
        do {
            _ = try await host.runner.run(script: "while (true) {}")
        } catch {
            timeout = "\(error)"
        }
        #expect(timeout?.contains("opened \(server.url()) again;") == true, "\(String(describing: timeout))")
        #expect(page.page.session !== firstSession)
        #expect(notices.notices.contains { if case .page(let info, _) = $0 { info.title == "Stuck page" } else { false } })
        let after = try await host.runner.run(script: "document.title + ' ' + (40 + 2)")
        #expect(after.value == .string("Stuck page 42"))

        // Ctrl-R on a running script, then yes: the page is replaced while the run waits on it.
        let stuck = Task { try await host.runner.run(script: "while (true) {}") }
        try await Task.sleep(for: .milliseconds(500))
        let recovered = try #require(try await host.recoverPage?())
        #expect(recovered.page.url == server.url())
        #expect(recovered.message.contains("stopped"), "\(recovered.message)")
        await #expect(throws: (any Error).self) { try await stuck.value }
        #expect(try await host.runner.run(script: "41 + 1").value == .number("42"))
        session.lateWork.stop()
        await page.close()
    }

    /// A page borrowed from `browse` is the user's own browser: a run that leaves it stuck is
    /// not answered with a new browser; the message says what to do, the page is the same, and
    /// closing the editor's page leaves it open.
    @Test func aStuckBorrowedPageIsNeitherReplacedNorClosed() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Borrowed page</title>"])
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let opened = try await PageRunner.open(on: .local(.webkit), url: server.url(), scriptTimeout: 2)
        let page = EditorPage(borrowing: opened.page, address: server.url())
        #expect(!page.isOwned)
        let turn = PageTurn()
        let session = PageEditorHost.UserScriptSession(
            host: GMHost(libraryDirectory: folder.library.directory), turn: turn, lateWork: LateWorkServer(page: page, turn: turn))
        let host = PageEditorHost.make(page: page, pageURL: server.url(), library: folder.library, loaded: LoadedScripts(), busy: BusyFlag(),
                                       session: session)
        var timeout: String?
        do {
            _ = try await host.runner.run(script: "while (true) {}")
        } catch {
            timeout = "\(error)"
        }
        #expect(timeout?.contains("in your own browser, which PageScript does not close") == true, "\(String(describing: timeout))")
        #expect(page.page === opened.page)
        session.lateWork.stop()
        await page.close()
        #expect(!opened.engine.processes.isEmpty && opened.engine.processes.allSatisfy(\.isRunning), "closing a borrowed page stopped its browser")
        await opened.close(after: .injection(.timedOut(seconds: 0)))
    }

    @Test func theHostRunsOnThePageAndKeepsScriptsInTheLibrary() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Host page</title><p>one two</p>"])
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let library = folder.library
        let named = NamedScript(name: "Word count", code: "document.body.innerText.split(/\\s+/).length",
                                matchPatterns: ["http://127.0.0.1/*"], excludePatterns: ["http://127.0.0.1/admin/*"],
                                runAt: "document-idle")
        let page = try await Self.editorPage(server.url(), scriptTimeout: 10)
        let answers = await { () async -> HostAnswers in
            let context = try? await page.page.context()
            let busy = BusyFlag()
            let loaded = LoadedScripts()
            let turn = PageTurn()
            let session = PageEditorHost.UserScriptSession(
                host: GMHost(libraryDirectory: library.directory), turn: turn, lateWork: LateWorkServer(page: page, turn: turn, interval: 0.1))
            defer { session.lateWork.stop() }
            let pageURL = context?.url ?? ""
            let host = PageEditorHost.make(page: page, pageURL: pageURL, library: library, loaded: loaded, busy: busy, session: session)
            let start = PageEditorHost.initialScript(library: library, pageURL: pageURL, loaded: loaded)
            var answers = HostAnswers(form: host.form)
            do {
                answers.ran = try await host.runner.run(script: "console.warn('careful'); document.title.length")
                answers.thrown = try await host.runner.run(script: "1;\nnull.boom")
                // Text with its own metadata block runs as a userscript, with the GM API it grants.
                answers.userScript = try await host.runner.run(
                    script: "// ==UserScript==\n// @name Editor GM\n// @grant GM_info\n// ==/UserScript==\nGM_info.scriptHandler + ' ' + GM_info.script.name\n")
                // Text the library does not hold keeps its values for the session, run after run.
                let counter = "// ==UserScript==\n// @name Counter\n// @grant GM_getValue\n// @grant GM_setValue\n// ==/UserScript==\n"
                    + "const n = GM_getValue('n', 0) + 1; GM_setValue('n', n); n"
                answers.counts = [try await host.runner.run(script: counter), try await host.runner.run(script: counter)]
                // What a script queues after its run (a timer's GM_setValue) is served between runs.
                let late = "// ==UserScript==\n// @name Late\n// @grant GM_setValue\n// ==/UserScript==\n"
                let twin = try library.create(UserScript(text: late))
                _ = try await host.runner.run(script: late + "setTimeout(() => GM_setValue('late', 'kept'), 300); 'started'")
                let store = ScriptValueStore(libraryDirectory: library.directory)
                for _ in 0..<50 where answers.lateValue == nil {
                    try await Task.sleep(nanoseconds: 100_000_000)
                    answers.lateValue = try store.values(of: twin.id)["late"]
                }
                answers.busyAfterwards = busy.isBusy
                answers.receipt = try await host.save?(start.document, "document.title")
                answers.examples = try await host.examples?() ?? []
                let created = try await host.createScript?(named)
                answers.summaries = try await host.listScripts?() ?? []
                answers.opened = try await host.openScript?(created?.id ?? "")
                answers.reloaded = try await host.reloadPage?()
            } catch {
                answers.failure = "\(error)"
            }
            return answers
        }()
        await page.close()
        #expect(answers.failure == nil)
        // Ctrl-R: the value, the console, and an exception with its place in the script.
        #expect(answers.ran == ScriptRunResult(value: .number("9"), console: [ConsoleMessage(level: .warn, message: "careful")]))
        #expect(answers.userScript?.value == .string("PageScript Editor GM"), "\(String(describing: answers.userScript))")
        #expect(answers.counts.map(\.value) == [.number("1"), .number("2")], "\(answers.counts)")
        #expect(answers.lateValue == "kept", "a timer's GM_setValue after the run reaches the library")
        #expect(answers.thrown?.exception?.name == "TypeError")
        #expect(answers.thrown?.exception?.line == 2)
        #expect(!answers.busyAfterwards)
        // Ctrl-S: saved as the page's site script, which the editor opens there next time.
        #expect(answers.receipt?.message.hasPrefix("Saved the script for 127.0.0.1:") == true, "\(String(describing: answers.receipt))")
        #expect(answers.receipt?.document.id != nil)
        #expect(PageEditorHost.initialScript(library: library, pageURL: server.url(), loaded: LoadedScripts()).code == "document.title")
        // Ctrl-E: the built-in examples, as code without their metadata block, with what they do.
        #expect(answers.examples.count >= 8)
        #expect(answers.examples.allSatisfy { !$0.code.hasPrefix("\n") && !$0.code.contains("==UserScript==") })
        #expect(answers.examples.allSatisfy { $0.summary?.isEmpty == false })
        // Ctrl-N, then Ctrl-O: a named script keeps its patterns, excludes and run-at.
        #expect(answers.summaries.contains { $0.name == "Word count" })
        #expect(answers.opened?.code == named.code)
        #expect(answers.opened?.document.matchPatterns == named.matchPatterns)
        #expect(answers.opened?.document.excludePatterns == named.excludePatterns)
        #expect(answers.opened?.document.runAt == "document-idle")
        #expect(answers.opened?.document.title == "Script “Word count”")
        // F5: the page again.
        #expect(answers.reloaded?.title == "Host page")
        // The naming form checks each pattern as it is typed, with MatchPattern's reason.
        let form = try #require(answers.form)
        #expect(form.matchPatterns.problem(with: "http://127.0.0.1/*") == nil)
        #expect(form.matchPatterns.problem(with: "http://*.example.com") != nil)
        #expect(form.matchPatterns.applying("/", in: NSRange(location: 5, length: 0), to: "ftp:/") == nil, "scripts never run on ftp")
        #expect(form.matchPatterns.applying("w", in: NSRange(location: 0, length: 0), to: "") == "w", "a bare host is let through to be explained")
        #expect(form.excludePatterns.applying("h", in: NSRange(location: 0, length: 0), to: "") == "h")
        #expect(form.defaultMatchPatterns == ["*://127.0.0.1:\(server.port)/*"], "\(form.defaultMatchPatterns)")
    }

    /// Issue 18, items 3 and 4: text an editor could not hand back is kept in a file.
    @Test func unsavedTextIsKeptWhenTheEditorEndsWithoutTheUser() throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let document = ScriptDocument.siteScript(for: "127.0.0.1:8080")
        let quit = PageEditor.keep(EditorOutcome(script: "gone", hasUnsavedChanges: true, reason: .quit, document: document),
                                   in: folder.library)
        #expect(quit.recoveryFile == nil)
        let saved = PageEditor.keep(EditorOutcome(script: "kept", hasUnsavedChanges: false, reason: .terminalClosed), in: folder.library)
        #expect(saved.recoveryFile == nil)
        for reason in [EditorOutcome.Reason.terminalClosed, .stopped("The browser closed"), .signal(15)] {
            let ending = PageEditor.keep(EditorOutcome(script: "let mine = 1;\n", hasUnsavedChanges: true, reason: reason, document: document),
                                         in: folder.library)
            let file = try #require(ending.recoveryFile)
            #expect(file.deletingLastPathComponent().lastPathComponent == ".recovery")
            #expect(file.lastPathComponent.hasPrefix("127-0-0-1-8080-"))
            #expect(try String(contentsOf: file, encoding: .utf8) == "let mine = 1;\n")
        }
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.directory.appendingPathComponent(".recovery").path)
        #expect(copies.count == 3)
    }

    @Test func theWatchdogNoticesADriverThatExits() async throws {
        let engine = try await BrowserEngine.start(.webkit)
        let session = try await engine.newSession(timeout: 30)
        let deaths = DeathLog()
        let watchdog = BrowserWatchdog(processes: { engine.processes }, session: { session }, interval: 0.1, isBusy: { false }) { reason in
            deaths.record(reason)
        }
        defer { watchdog.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        #expect(deaths.reasons.isEmpty, "a live browser was reported dead: \(deaths.reasons)")

        let driver = try #require(engine.processes.first { $0.executablePath.hasSuffix("WebKitWebDriver") })
        driver.killGroupImmediately()
        let deadline = ContinuousClock.now + .seconds(10)
        while deaths.reasons.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        await engine.stop()
        // Whichever it sees first, the driver gone or its endpoint closed, it says so once.
        #expect(deaths.reasons.count == 1)
        let reason = deaths.reasons.first ?? ""
        #expect(reason.contains("WebKitWebDriver") || reason.hasPrefix("The browser closed"), "\(deaths.reasons)")
    }

    @Test func aBusyPageIsNotAskedWhetherItLives() async throws {
        let flag = BusyFlag()
        #expect(!flag.isBusy)
        let seenInside = await flag.during { flag.isBusy }
        #expect(seenInside)
        #expect(!flag.isBusy)
    }
}

/// The reasons a watchdog gave, in order.
final class DeathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    var reasons: [String] { lock.withLock { recorded } }
    func record(_ reason: String) { lock.withLock { recorded.append(reason) } }
}

/// What the editor's host told the editor, in order.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [EditorNotice] = []
    var notices: [EditorNotice] { lock.withLock { recorded } }
    func record(_ notice: EditorNotice) { lock.withLock { recorded.append(notice) } }
}
