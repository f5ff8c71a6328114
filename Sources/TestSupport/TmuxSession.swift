import Foundation
import SystemSupport

/// A program running in a real terminal: a detached tmux session on a private tmux server, for
/// end-to-end tests of full-screen programs.
public final class TmuxSession: @unchecked Sendable {
    /// The private server's socket name.
    public let socket: String
    /// The session's name.
    public let name = "test"

    /// Starts `command` (run by `/bin/sh -c`) in a `columns` x `rows` terminal, with `environment`
    /// added to the test's own, less `NO_COLOR` unless `environment` sets it: `swift test` sets it
    /// for the test process, and a person's terminal has colours.
    public init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        socket = "pagescript-test-\(UUID().uuidString.prefix(8))"
        let exports = (environment["NO_COLOR"] == nil ? "unset NO_COLOR; " : "")
            + environment.map { "export \($0.key)='\($0.value)';" }.joined(separator: " ")
        // The first command starts the tmux server, which would inherit an output pipe and keep
        // it open for good: commands that print nothing get no pipe.
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", "\(exports) \(command)"], capturing: false)
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"], capturing: false)
        // Programs' OSC 52 clipboard writes become tmux's paste buffers, for ``clipboard()``.
        try tmux(["set-option", "-s", "set-clipboard", "on"], capturing: false)
    }

    /// Types `text` literally.
    public func type(_ text: String) throws {
        // A trailing ';' would end tmux's command, so it is sent as a key of its own.
        for (index, piece) in text.components(separatedBy: ";").enumerated() {
            if index > 0 { try tmux(["send-keys", "-t", name, "\\;"], capturing: false) }
            if !piece.isEmpty { try tmux(["send-keys", "-t", name, "-l", piece], capturing: false) }
        }
    }

    /// Presses keys by tmux's names (`Enter`, `C-r`, `Escape`, `Up`).
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys, capturing: false)
    }

    /// Presses Escape and waits until `closed` holds, then a little longer than a full-screen
    /// program's Escape delay: a frame caught half-drawn can satisfy `closed` before the program
    /// has read the Escape, and a key sent then would be read with it as an Alt chord.
    public func pressEscape(until closed: ([String]) -> Bool, timeout: Double = 20) throws {
        try press("Escape")
        _ = try waitFor(timeout: timeout, closed)
        Thread.sleep(forTimeInterval: 0.2)
    }

    /// The screen's text, one string per row.
    public func screen() throws -> [String] {
        try tmux(["capture-pane", "-t", name, "-p"]).components(separatedBy: "\n")
    }

    /// Everything the pane has shown, its scrollback included, with rows that wrapped joined
    /// back into the lines the program wrote: for a message printed after a full-screen program
    /// left, which may have scrolled and wrapped.
    public func transcript() throws -> String {
        try tmux(["capture-pane", "-t", name, "-p", "-J", "-S", "-"])
    }

    /// The screen's text with its colours and attributes as SGR escape sequences, one string
    /// per row, for checking what is highlighted.
    public func styledScreen() throws -> [String] {
        try tmux(["capture-pane", "-t", name, "-p", "-e"]).components(separatedBy: "\n")
    }

    /// The cursor's row and column (0-based).
    public func cursor() throws -> (row: Int, column: Int) {
        let text = try tmux(["display-message", "-t", name, "-p", "#{cursor_y} #{cursor_x}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: " ").compactMap { Int($0) }
        guard parts.count == 2 else { throw TmuxError(message: "unexpected cursor report '\(text)'") }
        return (parts[0], parts[1])
    }

    /// Resizes the terminal.
    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"], capturing: false)
    }

    /// Whether the program has exited (the pane is dead).
    public func hasExited() throws -> Bool {
        try tmux(["display-message", "-t", name, "-p", "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Waits up to `timeout` seconds for `condition` on the screen's text and returns the screen
    /// that meets it; throws, showing the last screen, when none does in time (so a wait is a
    /// check that can fail).
    @discardableResult
    public func waitFor(timeout: Double = 20, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last) {
            guard Date() < deadline else {
                throw TmuxError(message: "the screen did not show what was waited for within \(timeout) s; it shows:\n"
                    + last.joined(separator: "\n"))
            }
            Thread.sleep(forTimeInterval: 0.1)
            last = try screen()
        }
        return last
    }

    /// Waits until some row contains `text` and returns the screen; throws when none does in time.
    @discardableResult
    public func waitFor(text: String, timeout: Double = 20) throws -> [String] {
        try waitFor(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Ends the session and its server.
    /// What the program last put on the terminal's clipboard (OSC 52), `nil` when nothing.
    public func clipboard() -> String? {
        try? tmux(["show-buffer"])
    }

    /// Ends the tmux server and everything running in it.
    public func kill() {
        _ = try? tmux(["kill-server"], capturing: false)
    }

    @discardableResult
    private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
        // Foundation's Process sometimes never sees the short-lived tmux client exit on Linux;
        // posix_spawn and waitpid do.
        guard let executable = ExecutableLocator.find("tmux") else { throw TmuxError(message: "tmux is not installed") }
        let outputPath = capturing ? NSTemporaryDirectory() + "pagescript-tmux-\(UUID().uuidString)" : nil
        defer { if let outputPath { unlink(outputPath) } }
        let child = try ChildProcess.launch(executable: executable, arguments: ["-L", socket] + arguments, outputPath: outputPath)
        let deadline = Date().addingTimeInterval(10)
        var status = child.pollExit()
        while status == nil, Date() < deadline {
            usleep(2_000)
            status = child.pollExit()
        }
        guard let status else {
            child.stop(grace: 0.1)
            throw TmuxError(message: "tmux \(arguments.first ?? "") did not finish")
        }
        guard status == 0 else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        guard let outputPath else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}

/// tmux refused a command.
public struct TmuxError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
