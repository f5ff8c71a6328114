import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript batch` on a real terminal (tmux): what a person sees.
struct BatchTerminalTests {
    /// Records written to the terminal are whole lines: no progress line is drawn under them to
    /// run into (`...ETA 10s  2 sessions{"index":21,...`). With `--output`, the progress line
    /// is drawn and cleared before the summary.
    @Test func recordsOnTheTerminalAreNotRunIntoByTheProgressLine() throws {
        let server = try LoopbackServer(responses: [
            "/slow": LoopbackResponse(body: "<title>Slow</title>", contentType: "text/html", delay: 0.7),
        ])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-batch-tty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let list = folder + "/urls.txt"
        try Data((0..<6).map { _ in server.url("/slow") }.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: list))
        let marker = ProcessProbe.newMarker()

        let command = "'\(PageScriptBinary.path)' batch '\(list)' -e document.title --engine chromium --jobs 1; echo BATCH-ENDED"
        let terminal = try TmuxSession(command: command + "; sleep 60", columns: 200, rows: 40, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        _ = try terminal.waitFor(timeout: 90) { _ in ((try? terminal.transcript()) ?? "").contains("BATCH-ENDED") }
        let lines = try terminal.transcript().components(separatedBy: "\n")
        let records = lines.filter { $0.contains("\"index\"") }
        #expect(records.count == 6, "\(lines)")
        #expect(records.allSatisfy { $0.hasPrefix("{\"index\"") }, "\(records)")
        // The progress line's own words ("1 session"); the summary has none of them.
        #expect(!lines.contains { $0.contains(" session") }, "\(lines)")

        let output = folder + "/records.jsonl"
        let toFile = "'\(PageScriptBinary.path)' batch '\(list)' -e document.title --engine chromium --jobs 1 --output '\(output)'; echo BATCH-ENDED"
        let second = try TmuxSession(command: toFile + "; sleep 60", columns: 200, rows: 40, environment: [marker.name: marker.value])
        defer { second.kill() }
        var sawProgress = false
        _ = try second.waitFor(timeout: 90) { screen in
            if screen.contains(where: { $0.contains("1 session") }) { sawProgress = true }
            return ((try? second.transcript()) ?? "").contains("BATCH-ENDED")
        }
        #expect(sawProgress, "a batch writing to a file shows its progress")
        #expect(BatchTerminalTests.lineCount(output) == 6)
    }

    static func lineCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").filter { $0 == "\n" }.count
    }
}
