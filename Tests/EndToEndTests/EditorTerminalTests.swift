import Foundation
import SystemSupport
import Testing
import TestSupport

/// `pagescript edit` in a real terminal (tmux) against real engines and a loopback page.
@Suite(.serialized)
struct EditorTerminalTests: EditorInTmux {
    let server: LoopbackServer
    let library: String
    let marker = ProcessProbe.newMarker()

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Editor page</title><p>text</p>"])
        library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-edit-\(UUID().uuidString)").path
    }

    @Test(arguments: ["webkit", "chromium"])
    func writesRunsSavesAndFindsTheScriptAgain(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Editor page")
        #expect(try terminal.screen().first?.contains(server.url()) == true)
        #expect(try terminal.screen().contains { $0.contains("Write JavaScript to run on this page") })

        try terminal.type("console.log('from the page')")
        try terminal.press("Enter")
        try terminal.type("document.title.length * 3")
        try terminal.press("C-r")
        let ran = try terminal.waitFor(text: "33")
        #expect(ran.contains { $0.contains("from the page") }, "\(ran)")

        // An error on line 3 moves the cursor there. Esc is told from Alt-Enter by a pause, so
        // the next key waits for the panel to close.
        try terminal.pressEscape { rows in !rows.contains { $0.contains("Result") } }
        try terminal.press("Enter")
        try terminal.type("null.boom")
        try terminal.press("Home")
        try terminal.press("C-r")
        let failed = try terminal.waitFor(text: "TypeError")
        #expect(failed.contains { $0.contains("Ln 3") }, "\(failed)")

        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved the script for")
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()

        let again = try TmuxSession(command: editCommand(engine: engine), environment: [marker.name: marker.value])
        defer { again.kill() }
        let reopened = try again.waitFor(text: "null.boom")
        #expect(reopened.contains { $0.contains("document.title.length * 3") })
        try again.press("C-q")
        try again.waitFor(timeout: 15) { _ in (try? again.hasExited()) == true }
        expectNothingLeft()
    }

    @Test func resizingWithThePanelUpKeepsTheCursorVisible() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: "chromium"), columns: 100, rows: 40, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Editor page")
        for line in 1...30 {
            try terminal.type("const v\(line) = \(line)")
            try terminal.press("Enter")
        }
        try terminal.type("console.log('tall'); v30")
        try terminal.press("C-r")
        try terminal.waitFor(text: "[log] tall")
        try terminal.resize(columns: 80, rows: 24)
        let screen = try terminal.waitFor { rows in
            rows.count <= 25 && rows.contains { $0.contains("[log] tall") } && rows.contains { $0.contains("Result") }
        }
        let cursor = try terminal.cursor()
        let panelTop = try #require(screen.firstIndex { $0.contains("Result") }, "no panel on screen: \(screen.joined(separator: "\n"))")
        #expect(cursor.row < panelTop, "the cursor (row \(cursor.row)) is hidden under the panel (row \(panelTop))")
        #expect(screen[cursor.row].contains("v30"), "the cursor's line is not on screen: \(screen)")
        try terminal.pressEscape { rows in !rows.contains { $0.contains("Result") } }
        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    /// What a script logs after its run ended (a timer) joins that run's output as it comes,
    /// with a note on the status line; on both engines.
    @Test(arguments: ["webkit", "chromium"])
    func linesLoggedAfterTheRunJoinItsOutput(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Editor page")
        try terminal.type("setTimeout(function () { console.log('logged later') }, 1500); 'ran'")
        try terminal.press("C-r")
        try terminal.waitFor(text: "\"ran\"")
        let later = try terminal.waitFor(text: "[log] logged later", timeout: 30)
        #expect(later.contains { $0.contains("after its run") }, "\(later)")
        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    enum Ending: String, CaseIterable {
        case quit, sigterm, killedBrowser
    }

    @Test(arguments: Ending.allCases)
    func theTerminalIsRestored(ending: Ending) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-stty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = "stty -g > '\(folder)/before'; \(editCommand(engine: "chromium")); echo $? > '\(folder)/status'; stty -g > '\(folder)/after'"
        let terminal = try TmuxSession(command: command, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Editor page")
        let processes = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        switch ending {
        case .quit:
            try terminal.press("C-q")
        case .sigterm:
            let editor = try #require(processes.first { $0.contains("pagescript edit") })
            let pid = try #require(Int32(editor.split(separator: " ")[0]))
            kill(pid, SIGTERM)
        case .killedBrowser:
            // The browser's main process: Chromium's binary without a --type= (helpers have one).
            let browsers = processes.filter {
                $0.split(separator: " ").dropFirst().first?.hasSuffix("/chromium") == true && !$0.contains("--type=")
            }
            #expect(!browsers.isEmpty, "no browser process found among \(processes)")
            for browser in browsers {
                if let pid = Int32(browser.split(separator: " ")[0]) { kill(pid, SIGKILL) }
            }
        }
        let statusFile = "\(folder)/after"
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: statusFile), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let before = try String(contentsOfFile: "\(folder)/before", encoding: .utf8)
        let after = try String(contentsOfFile: statusFile, encoding: .utf8)
        #expect(before == after, "terminal settings differ after \(ending)")
        let status = try String(contentsOfFile: "\(folder)/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        switch ending {
        case .quit: #expect(status == "0")
        case .sigterm: #expect(status == "143")
        case .killedBrowser: #expect(status == "3")
        }
        expectNothingLeft()
    }

    /// A terminal that fails under the editor (its screen side closes while the editor is open,
    /// as a closed window leaves it) ends it as a hang-up does (issue 18, item 4): the unsaved
    /// text goes to a recovery copy, the message says where, and the browser is stopped.
    @Test func aTerminalThatFailsEndsTheEditorAsAHangUp() async throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let keyboard = try PseudoTerminal()
        let screen = try PseudoTerminal()
        screen.startDraining()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-edit-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let environment = ProcessInfo.processInfo.environment.merging([marker.name: marker.value]) { $1 }
        let editor = try ChildProcess.launch(
            executable: PageScriptBinary.path, arguments: ["edit", server.url(), "--library", library, "--engine", "webkit"],
            environment: environment, outputPath: log, inheritedDescriptors: [(keyboard.slave, 0), (screen.slave, 1)])
        defer { editor.stop() }
        #expect(await screen.waitForOutput(containing: "Editor page", timeout: .seconds(60)), "the editor never drew: \(screen.screenText)")
        screen.hangUp()
        keyboard.send("x")
        var status = editor.pollExit()
        let deadline = ContinuousClock.now + .seconds(30)
        while status == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            status = editor.pollExit()
        }
        let exitStatus = try #require(status, "pagescript edit did not end")
        let message = try String(contentsOfFile: log, encoding: .utf8)
        #expect(exitStatus >> 8 == 128 + SIGHUP, "exit status \(exitStatus): \(message)")
        #expect(message.hasPrefix("pagescript: the terminal went away; your unsaved script was kept in \(library)/.recovery/"),
                "\(message)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: library + "/.recovery")
        #expect(copies.count == 1)
        #expect(try copies.first.map { try String(contentsOfFile: library + "/.recovery/" + $0, encoding: .utf8) } == "x")
        expectNothingLeft()
    }
}

/// The keys of issue 19 in one editor session on each engine: find with its highlight, go to
/// line, comment toggle, the help screen, the Ctrl-N form, a run whose panel shows a table, a
/// group and an indented value, and the Ln/Col indicator in narrow terminals.
@Suite(.serialized)
struct EditorKeysTerminalTests: EditorInTmux {
    let server: LoopbackServer
    let library: String
    let marker = ProcessProbe.newMarker()

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Keys page</title><p>text</p>"])
        library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-keys-\(UUID().uuidString)").path
    }

    static let script = [
        "const data = {a: 1, nested: {list: [1, 2, 3], deep: {x: 'y'}}}",
        "console.table([{name: 'alpha', n: 1}, {name: 'beta', n: 22}])",
        "console.group('grp')",
        "console.log('inside')",
        "console.log('skip me')",
        "console.groupEnd()",
        "data",
    ]

    /// The line keys, replace, a key that does nothing, reloading, Alt-W, Alt-D, F3 and
    /// Shift-F3, and Ctrl-R on a running script: cancelled, the page recovered, and the next run
    /// answers.
    @Test(arguments: ["webkit", "chromium"])
    func lineKeysReplaceAndCancellingARun(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), columns: 100, rows: 40, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Keys page")
        for (index, line) in ["let one = 1", "let two = 2", "  let three = 3"].enumerated() {
            if index > 0 { try terminal.press("Enter") }
            try terminal.type(line)
        }
        try terminal.waitFor(text: "let three = 3")
        func row(_ text: String, in rows: [String]) -> Int? { rows.firstIndex { $0.contains(text) } }

        // Ctrl-K deletes the line, Ctrl-Z brings it back.
        try terminal.press("C-k")
        try terminal.waitFor { rows in row("let three", in: rows) == nil }
        try terminal.press("C-z")
        try terminal.waitFor(text: "  let three = 3")
        // Shift-Tab dedents it, Alt-↑ moves it above the line before, Ctrl-D duplicates it.
        try terminal.press("BTab")
        try terminal.waitFor { rows in row("let three", in: rows) != nil && row("  let three", in: rows) == nil }
        try terminal.press("M-Up")
        try terminal.waitFor { rows in (row("let three", in: rows) ?? 99) < (row("let two", in: rows) ?? 0) }
        try terminal.press("C-d")
        try terminal.waitFor { rows in rows.filter { $0.contains("let three = 3") }.count == 2 }
        // Ctrl-\ replaces: "let" by "var", Alt-A every match.
        try terminal.press("C-\\")
        try terminal.type("let")
        try terminal.press("Tab")
        try terminal.type("var")
        try terminal.press("M-a")
        let replaced = try terminal.waitFor(text: "Replaced 4 matches")
        #expect(!replaced.contains { $0.contains("let one") || $0.contains("let two") || $0.contains("let three") },
                "\(replaced.joined(separator: "\n"))")
        #expect(replaced.filter { $0.contains("var three = 3") }.count == 2, "\(replaced.joined(separator: "\n"))")
        try terminal.press("Escape")
        // A key bound to nothing says so.
        try terminal.press("F12")
        try terminal.waitFor(text: "does nothing here. F1 lists the keys.")
        // F5 reloads the page.
        try terminal.press("F5")
        try terminal.waitFor(text: "Reloaded the page.")

        // The lines are now: var one, var three, var three, var two. Ctrl-G puts the cursor on
        // a word. Alt-W selects the word at the cursor, which typing replaces; pressed again,
        // the selection grows over the next word too.
        func goTo(_ place: String, status: String) throws {
            try terminal.press("C-g")
            try terminal.requireScreen(text: "Go to line")
            try terminal.type(place)
            try terminal.press("Enter")
            try terminal.requireScreen(text: status)
        }
        try goTo("4:6", status: "Ln 4, Col 6")
        try terminal.press("M-w")
        try terminal.type("deux")
        try terminal.requireScreen("Alt-W: two replaced") { rows in rows.contains { $0.contains("var deux = 2") } && !rows.contains { $0.contains("two") } }
        try goTo("1:1", status: "Ln 1, Col 1")
        try terminal.press("M-w", "M-w")
        try terminal.type("uno")
        try terminal.requireScreen("Alt-W twice: var one replaced") { rows in rows.contains { $0.contains("uno = 1") } && !rows.contains { $0.contains("var one") } }
        // Alt-D deletes the word after the cursor.
        try goTo("2:1", status: "Ln 2, Col 1")
        try terminal.press("M-d")
        try terminal.requireScreen("Alt-D: var deleted") { rows in rows.filter { $0.contains("var three = 3") }.count == 1 && rows.contains { $0.hasSuffix(" three = 3") && !$0.contains("var") } }
        // F3 with the find bar closed finds the last search's next match, round the end;
        // Shift-F3 the one before.
        try goTo("1:1", status: "Ln 1, Col 1")
        // Ctrl-F offers the last search ("let"): typing replaces it.
        try terminal.press("C-f")
        try terminal.requireScreen("the last search offered") { rows in rows.contains { $0.contains("Find") && $0.contains("let") } }
        try terminal.type("three")
        try terminal.requireScreen("the first match") { rows in rows.contains { $0.contains("1 of 2") } && rows.contains { $0.contains("Ln 2,") } }
        try terminal.press("Escape")
        try terminal.requireScreen("the find bar closed") { rows in !rows.contains { $0.contains("1 of 2") } }
        try terminal.press("F3")
        try terminal.requireScreen(text: "Ln 3, Col 10")
        try terminal.press("F3")
        let wrapped = try terminal.requireScreen(text: "Searched past the end: back at the top.")
        #expect(wrapped.contains { $0.contains("Ln 2, Col 7") }, "\(wrapped.joined(separator: "\n"))")
        try terminal.press("S-F3")
        let back = try terminal.requireScreen(text: "Searched past the top: back at the end.")
        #expect(back.contains { $0.contains("Ln 3, Col 10") }, "\(back.joined(separator: "\n"))")

        // Ctrl-R on a script that never returns, Ctrl-R again: cancel it. The page is replaced and
        // the next run answers.
        try terminal.press("C-a")
        try terminal.type("while (true) {}")
        try terminal.press("C-r")
        Thread.sleep(forTimeInterval: 1)
        try terminal.press("C-r")
        try terminal.waitFor(text: "Cancel it?")
        try terminal.press("y")
        try terminal.waitFor(text: "The script was stopped", timeout: 60)
        // An Escape followed at once by Ctrl-A reads as Alt-Ctrl-A: the panel closes first.
        try terminal.pressEscape { rows in !rows.contains { $0.contains("The script was stopped") } }
        try terminal.press("C-a")
        try terminal.type("document.title + ' ' + 6 * 7")
        try terminal.press("C-r")
        try terminal.waitFor(text: "Keys page 42", timeout: 30)
        try terminal.waitFor(text: "run 2 (2 of 2)")
        // Alt-R runs the last script again; F6 and ← go back to the run before.
        try terminal.press("M-r")
        try terminal.waitFor(text: "run 3 (3 of 3)", timeout: 30)
        try terminal.press("F6")
        try terminal.press("Left")
        try terminal.waitFor(text: "run 2 (2 of 3)")
        try terminal.press("F6")
        try terminal.press("Escape")
        // Ctrl-W deletes the word before the cursor; Ctrl-L selects the line, which typing replaces.
        try terminal.press("C-End")
        try terminal.press("C-w")
        try terminal.waitFor { rows in rows.contains { $0.hasSuffix("6 *") } && !rows.contains { $0.contains("6 * 7") } }
        try terminal.press("C-l")
        try terminal.type("1 + 1")
        try terminal.waitFor { rows in rows.contains { $0.contains("1 + 1") } && !rows.contains { $0.contains("document.title +") } }
        // Ctrl-Z takes the typing back; Ctrl-Y brings it back on screen.
        try terminal.press("C-z")
        try terminal.requireScreen("the typing undone") { rows in !rows.contains { $0.contains("1 + 1") } }
        try terminal.press("C-y")
        try terminal.requireScreen("the typing redone") { rows in rows.contains { $0.contains("1 + 1") } && !rows.contains { $0.contains("document.title +") } }

        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    @Test(arguments: ["webkit", "chromium"])
    func keysOfTheEditorInARealTerminal(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), columns: 100, rows: 50, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Keys page")
        for (index, line) in Self.script.enumerated() {
            try terminal.type(line)
            if index < Self.script.count - 1 { try terminal.press("Enter") }
        }
        try terminal.waitFor { rows in rows.contains { $0.hasSuffix(" data") && !$0.contains("const") } }

        // Ctrl-F: the first match from the cursor (round the end) is selected, the other one
        // drawn on a yellow background.
        try terminal.press("C-f")
        try terminal.type("data")
        let found = try terminal.waitFor(text: "1 of 2")
        #expect(found.contains { $0.contains("Find") }, "\(found.joined(separator: "\n"))")
        let styled = try terminal.styledScreen()
        let lastLine = try #require(styled.first { $0.contains("7") && !$0.contains("console") && $0.contains("data") },
                                    "\(styled.joined(separator: "\n"))")
        #expect(lastLine.range(of: #"\x1B\[[0-9;]*43[0-9;]*m(\x1B\[[0-9;]*m)*data"#, options: .regularExpression) != nil,
                "the match is not highlighted: \(lastLine.debugDescription)")
        // Ctrl-F again offers the query, which typing replaces. "Data" finds both "data" in any
        // case; Alt-C (match case, shown in the bar) skips them; pressed again, it finds them.
        try terminal.press("C-f")
        try terminal.type("Data")
        try terminal.requireScreen("“Data” in any case") { rows in
            rows.contains { $0.contains("Find     Data ") && $0.contains("of 2") && $0.contains("[aa] any case") }
        }
        try terminal.press("M-c")
        try terminal.requireScreen("“Data” matching case") { rows in rows.contains { $0.contains("No match") && $0.contains("[Aa] case") } }
        try terminal.press("M-c")
        try terminal.requireScreen("“Data” in any case again") { rows in rows.contains { $0.contains("of 2") && $0.contains("[aa] any case") } }
        try terminal.pressEscape { rows in !rows.contains { $0.contains("1 of 2") } }

        // Ctrl-G to line 5, column 9: the status line says where the cursor is.
        try terminal.press("C-g")
        try terminal.waitFor(text: "Go to line")
        try terminal.type("5:9")
        try terminal.press("Enter")
        let went = try terminal.waitFor(text: "Ln 5, Col 9")
        #expect(went.last { !$0.isEmpty }?.contains("Ln 5, Col 9") == true, "\(went.joined(separator: "\n"))")

        // Ctrl-/ (which terminals send as Ctrl-_) comments the line out.
        try terminal.press("C-_")
        try terminal.waitFor(text: "// console.log('skip me')")

        // F1 shows the help screen, generated from the key table; Esc closes it.
        try terminal.press("F1")
        let help = try terminal.waitFor { rows in rows.contains { $0.contains("Ctrl-G") && $0.contains("Go to a line") } }
        #expect(help.contains { $0.contains("Keys (Esc closes") }, "\(help.joined(separator: "\n"))")
        try terminal.pressEscape { rows in !rows.contains { $0.contains("Keys (Esc closes") } }

        // Ctrl-N, the form that saves a new script (it does not touch the page, but costs only
        // keystrokes here, so it runs on both engines). Submitted invalid, it shows every
        // field's problem whole, wrapped under the field.
        try terminal.press("C-n")
        try terminal.requireScreen(text: "Save as a new script")
        try terminal.press("Tab", "C-u")
        try terminal.type("www.google.* https://example.com")
        try terminal.press("Tab")
        try terminal.type("nope")
        try terminal.press("Enter")
        let invalid = try terminal.requireScreen(text: "Give the script a name.")
        let form = try Self.dialog(titled: "Save as a new script", in: invalid)
        let problems = [
            "www.google.*: `www.google.*` is refused: it has no scheme: a match pattern starts with `*://`, `http://`, `https://` or `file://`. Did you mean `*://*.google.com/*`?",
            "https://example.com: `https://example.com` is refused: it has no path: add `/*` after the host to cover the whole site. Did you mean `https://example.com/*`?",
            "nope: `nope` is refused: it has no scheme: a match pattern starts with `*://`, `http://`, `https://` or `file://`",
        ]
        let formText = form.joined().filter { $0 != " " }
        for problem in problems {
            #expect(formText.contains(problem.filter { $0 != " " }), "not shown whole: \(problem)\n\(form.joined(separator: "\n"))")
            let start = try #require(form.firstIndex { $0.contains(String(problem.prefix(24))) }, "\(form.joined(separator: "\n"))")
            #expect(!form[start].contains(String(problem.suffix(12))), "not wrapped: \(form[start])")
        }

        // "On demand" (← from the first run-at; Shift-Tab from the name goes round to it) sets
        // the pattern fields aside; the script is saved with no @match and no @run-at.
        try terminal.type("On demand form")
        try terminal.press("BTab", "Left")
        let onDemand = try terminal.requireScreen(text: "On demand: no patterns and no run-at")
        #expect(onDemand.filter { $0.contains("(not used: on demand)") }.count == 2, "\(onDemand.joined(separator: "\n"))")
        try terminal.press("Enter")
        try terminal.requireScreen(text: "Saved as Script “On demand form”")
        let onDemandFile = try #require(try scriptFiles().first { try contents($0).contains("On demand form") })
        let onDemandHeader = try contents(onDemandFile).components(separatedBy: "\n")
        #expect(!onDemandHeader.contains { $0.contains("@match") || $0.contains("@run-at") || $0.contains("@exclude") },
                "\(onDemandHeader.joined(separator: "\n"))")

        // The exclude field: the script keeps the site's pattern and the exclusion.
        try terminal.press("C-n")
        try terminal.requireScreen(text: "Save as a new script")
        try terminal.type("Excluding form")
        try terminal.press("Tab", "Tab")
        try terminal.type("*://127.0.0.1/private/*")
        try terminal.press("Enter")
        try terminal.requireScreen(text: "Saved as Script “Excluding form”")
        let excludingFile = try #require(try scriptFiles().first { try contents($0).contains("Excluding form") })
        let excludingHeader = try contents(excludingFile).components(separatedBy: "\n")
        #expect(excludingHeader.contains { $0.contains("@exclude-match") && $0.hasSuffix(" *://127.0.0.1/private/*") },
                "\(excludingHeader.joined(separator: "\n"))")
        #expect(excludingHeader.contains { $0.contains("@match") && $0.contains("127.0.0.1") }, "\(excludingHeader.joined(separator: "\n"))")

        // Ctrl-R: the panel shows console.table as a table, the group's line indented under
        // it, not the commented-out line, and the value as indented JSON.
        try terminal.press("C-r")
        let ran = try terminal.waitFor(timeout: 60) { rows in
            rows.contains { $0.contains("\"list\": [1, 2, 3]") } && rows.contains { $0.contains("beta") } && rows.contains { $0.contains("inside") }
        }
        let panel = ran.drop { !$0.contains("Result") }
        #expect(panel.contains { $0.contains("│ (index) │ name") }, "\(ran.joined(separator: "\n"))")
        #expect(panel.contains { $0.contains("│ 1       │ beta  │ 22 │") })
        #expect(panel.contains { $0.hasPrefix("▾ grp") })
        #expect(panel.contains { $0.hasPrefix("  [log] inside") })
        #expect(!panel.contains { $0.contains("skip me") })
        let nestedRow = try #require(panel.first { $0.contains("\"nested\": {") })
        let listRow = try #require(panel.first { $0.contains("\"list\": [1, 2, 3]") })
        #expect(listRow.prefix { $0 == " " }.count == nestedRow.prefix { $0 == " " }.count + 2)

        // Narrow terminals keep the Ln/Col indicator, shortened when it must be.
        try terminal.resize(columns: 40, rows: 50)
        let narrow = try terminal.waitFor { rows in rows.allSatisfy { $0.count <= 40 } && rows.contains { $0.contains("Ln 5, Col 12") } }
        #expect(narrow.last { !$0.isEmpty }?.hasSuffix("Ln 5, Col 12") == true, "\(narrow.joined(separator: "\n"))")
        try terminal.resize(columns: 24, rows: 50)
        let narrower = try terminal.waitFor { rows in rows.contains { $0.hasSuffix("5:12") } }
        #expect(narrower.last { !$0.isEmpty }?.hasSuffix("5:12") == true, "\(narrower.joined(separator: "\n"))")

        // The text was saved under a name with Ctrl-N: Ctrl-Q quits without asking.
        try terminal.press("C-q")
        try terminal.requireScreen("the end of the editor", timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    func scriptFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.hasSuffix(".user.js") }.sorted()
    }

    func contents(_ file: String) throws -> String {
        try String(contentsOfFile: library + "/" + file, encoding: .utf8)
    }

    /// The inside of the box titled `title` on `screen`, one string per row: the text between
    /// its borders, without what the editor shows on either side.
    static func dialog(titled title: String, in screen: [String]) throws -> [String] {
        let top = try #require(screen.firstIndex { $0.contains(title) }, "no “\(title)” box: \(screen.joined(separator: "\n"))")
        let topRow = Array(screen[top])
        let left = try #require(topRow.firstIndex(of: "┌"))
        let right = try #require(topRow.lastIndex(of: "┐"))
        var rows: [String] = []
        for line in screen[(top + 1)...] {
            let row = Array(line)
            guard row.count > right, row[left] == "│" else { break }
            rows.append(String(row[(left + 1)..<right]))
        }
        return rows
    }
}

/// What the editor's tmux suites share: a loopback page, a library folder and a marker that
/// finds every process a test's editor started.
protocol EditorInTmux {
    var server: LoopbackServer { get }
    var library: String { get }
    var marker: (name: String, value: String) { get }
}

extension EditorInTmux {
    func editCommand(engine: String) -> String {
        "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine \(engine)"
    }

    func expectNothingLeft() {
        Thread.sleep(forTimeInterval: 0.3)
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
        #expect(leftovers.isEmpty, "still running: \(leftovers)")
    }
}
