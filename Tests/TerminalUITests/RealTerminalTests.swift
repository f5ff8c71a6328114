import Foundation
import ScriptConsole
import SystemSupport
import TestSupport
import Testing
@testable import TerminalUI

/// Tests against a real pseudo-terminal. Serialized: raw mode and signal handlers are
/// process-wide, one session at a time.
@Suite("Real terminal", .serialized)
struct RealTerminalTests {
    // MARK: Raw mode

    @Test func rawModeChangesTheFlagsAndRestoreBringsThemBack() throws {
        let terminal = try PseudoTerminal()
        let original = terminal.settings()
        // A fresh pseudo-terminal starts in cooked mode.
        #expect(original.c_lflag & tcflag_t(ICANON) != 0)
        #expect(original.c_lflag & tcflag_t(ECHO) != 0)

        let rawMode = try RawMode.enable(input: terminal.slave)
        let raw = terminal.settings()
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) == 0)
        #expect(raw.c_lflag & tcflag_t(IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL) == 0)
        #expect(raw.c_iflag & tcflag_t(IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(raw.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(raw.controlCharacter(VMIN) == 1)
        #expect(raw.controlCharacter(VTIME) == 0)

        rawMode.restore()
        let restored = terminal.settings()
        #expect(restored.c_lflag == original.c_lflag)
        #expect(restored.c_iflag == original.c_iflag)
        #expect(restored.c_oflag == original.c_oflag)
        #expect(restored.c_cflag == original.c_cflag)
        #expect(restored.controlCharacter(VMIN) == original.controlCharacter(VMIN))
        #expect(restored.controlCharacter(VTIME) == original.controlCharacter(VTIME))

        // Idempotent: a second restore changes nothing, and raw mode can start again.
        rawMode.restore()
        let again = try RawMode.enable(input: terminal.slave)
        again.restore()
        #expect(terminal.settings().c_lflag == original.c_lflag)
    }

    @Test func onlyOneRawModeAtATime() throws {
        let terminal = try PseudoTerminal()
        let rawMode = try RawMode.enable(input: terminal.slave)
        #expect(throws: TerminalError.rawModeAlreadyActive) {
            _ = try RawMode.enable(input: terminal.slave)
        }
        rawMode.restore()
    }

    @Test func releasingRawModeRestores() throws {
        let terminal = try PseudoTerminal()
        let original = terminal.settings()
        do {
            _ = try RawMode.enable(input: terminal.slave)
        }
        #expect(terminal.settings().c_lflag == original.c_lflag)
    }

    @Test func signalRestoreUsesThePreparedRecordOnce() throws {
        let terminal = try PseudoTerminal()
        terminal.startDraining()
        let original = terminal.settings()
        let rawMode = try RawMode.enable(input: terminal.slave, exitSequence: "<bye>")
        RawMode.restoreAfterSignal()
        #expect(terminal.settings().c_lflag == original.c_lflag)
        RawMode.restoreAfterSignal()
        rawMode.restore()
        Thread.sleep(forTimeInterval: 0.2)
        terminal.stopDraining()
        // The exit sequence went out exactly once (OPOST is back on, but it has no newline).
        #expect(terminal.screenText.components(separatedBy: "<bye>").count == 2)
    }

    @Test func aPipeIsNotATerminal() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(throws: TerminalError.notATerminal(fileDescriptor: ends[0])) {
            _ = try RawMode.enable(input: ends[0])
        }
    }

    @Test func terminalSizeIsRead() throws {
        let terminal = try PseudoTerminal(columns: 100, rows: 30)
        #expect(TerminalSize.current(of: terminal.slave) == TerminalSize(columns: 100, rows: 30))
    }

    // MARK: The editor on a terminal

    struct EchoRunner: ScriptRunning {
        func run(script: String) async throws -> ScriptRunResult {
            ScriptRunResult(value: .string("ran \(script.count) characters"),
                            console: [ConsoleMessage(level: .log, message: "log\u{1B}[2Jline")])
        }
    }

    static func makeApp(on terminal: PseudoTerminal, script: String = "") -> EditorApp {
        EditorApp(terminal: TerminalDevice(input: terminal.slave, output: terminal.slave),
                  page: PageInfo(title: "Title \u{1B}]0;x\u{7}", url: "https://example.com/"),
                  initialScript: script,
                  document: .siteScript(for: "example.com"),
                  host: EditorHost(runner: EchoRunner(), save: { document, _ in SaveReceipt(document: document, message: "Stored: 12345") }),
                  configuration: EditorConfiguration(escapeDelay: .milliseconds(30), handlesTerminationSignals: false))
    }

    @Test func editTypeRunAndQuit() async throws {
        let terminal = try PseudoTerminal()
        terminal.startDraining()
        let original = terminal.settings()
        let app = Self.makeApp(on: terminal)
        let session = Task { try await app.run() }

        #expect(await terminal.waitForOutput(containing: "Write JavaScript to run on this page"))
        #expect(terminal.screenText.contains("\u{1B}[?1049h"))
        #expect(terminal.screenText.contains("Title \\e]0;x\\u{7}"))
        terminal.send("let a = ")
        // A bracketed paste, then Ctrl-R.
        terminal.send("\u{1B}[200~“quoted”\u{1B}[201~")
        terminal.send([0x12])
        #expect(await terminal.waitForOutput(containing: "ran 16 characters"))
        // Only changed cells are written, so look for the escaped message itself.
        #expect(terminal.screenText.contains("log\\e[2Jline"))
        // Esc (decided by the timeout) closes the panel; Ctrl-Q asks, "y" quits.
        terminal.send([0x1B])
        try await Task.sleep(for: .milliseconds(200))
        terminal.send([0x11])
        #expect(await terminal.waitForOutput(containing: "Unsaved changes"))
        terminal.send("y")

        let outcome = try await session.value
        #expect(outcome.script == "let a = \"quoted\"")
        #expect(outcome.reason == .quit)
        #expect(outcome.hasUnsavedChanges)
        #expect(terminal.settings().c_lflag == original.c_lflag)
        #expect(await terminal.waitForOutput(containing: "\u{1B}[?1049l"))
        terminal.stopDraining()
    }

    @Test func stopFromTheHostEndsTheSessionAndRestores() async throws {
        let terminal = try PseudoTerminal()
        terminal.startDraining()
        let original = terminal.settings()
        let app = Self.makeApp(on: terminal, script: "saved();")
        let session = Task { try await app.run() }
        #expect(await terminal.waitForOutput(containing: "saved"))
        app.stop(reason: "The browser closed.")
        let outcome = try await session.value
        #expect(outcome.reason == .stopped("The browser closed."))
        #expect(outcome.script == "saved();")
        #expect(!outcome.hasUnsavedChanges)
        #expect(terminal.settings().c_lflag == original.c_lflag)
        terminal.stopDraining()
    }

    @Test func resizeRedrawsAtTheNewSize() async throws {
        let terminal = try PseudoTerminal(columns: 80, rows: 24)
        terminal.startDraining()
        let app = Self.makeApp(on: terminal, script: "x")
        let session = Task { try await app.run() }
        #expect(await terminal.waitForOutput(containing: "Ln 1, Col 1"))
        terminal.clearOutput()
        terminal.resize(columns: 100, rows: 30)
        // The kernel signals only the terminal's foreground group, which the test is not in.
        kill(getpid(), SIGWINCH)
        #expect(await terminal.waitForOutput(containing: "\u{1B}[30;"))
        #expect(terminal.screenText.contains(ANSI.clearScreen))
        app.stop(reason: "done")
        _ = try await session.value
        terminal.stopDraining()
    }

    @Test func savingThroughTheHost() async throws {
        let terminal = try PseudoTerminal()
        terminal.startDraining()
        let app = Self.makeApp(on: terminal)
        let session = Task { try await app.run() }
        #expect(await terminal.waitForOutput(containing: "Write JavaScript"))
        terminal.send("x")
        terminal.send([0x13])
        // The status changes from "Saving…" to the host's message: only the differing cells are
        // sent, so the message shares nothing with the line before it.
        #expect(await terminal.waitForOutput(containing: "12345"))
        terminal.send([0x11])
        let outcome = try await session.value
        #expect(outcome.script == "x")
        #expect(!outcome.hasUnsavedChanges)
        terminal.stopDraining()
    }
}
