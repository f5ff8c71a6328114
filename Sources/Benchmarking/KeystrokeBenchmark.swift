import Foundation
import TerminalUI
import TextInput

/// Row 5 of the benchmark table: what one keystroke costs before the screen can show it.
///
/// Nothing else decides these edits, so each row is compared with its budget (the ratio is the
/// fraction of the budget used):
///
/// - a field's keystroke decision, ``FieldFormat/applying(_:in:to:)``, on a short field
///   (``IntegerFormat`` and ``TextFormat``; budget 2 us) and in the middle of a 10,000-character
///   text of mixed scripts (``TextFormat`` without a limit, and with `maxLength: 10_000` for the
///   keystroke that reaches it, when every character must be counted; budget 50 us);
/// - the editor's keystroke to written frame on a 10,000-line script and a 1 MB paste into it:
///   the real editor state machine and renderer (`TerminalUI.EditorFrameProbe`), up to the bytes
///   a frame writes, without the terminal itself. These budgets are PageScript's own, not the
///   issue's: one 60 Hz frame (16.7 ms) for a keystroke and 100 ms (the limit of "instant") for
///   a paste;
/// - the find bar's next match in a 10,000-line script, to the written frame that shows it, with
///   the matches far apart so that each step searches about 5,000 lines (issue 19's budget: 1 ms).
public enum KeystrokeBenchmark {
    /// The field budget: one decision on a short field.
    public static let shortFieldBudget = 2e-6
    /// The field budget: one decision on a 10,000-character text.
    public static let longTextBudget = 50e-6
    /// The editor budget for a keystroke: one frame at 60 Hz.
    public static let editorKeystrokeBudget = 1.0 / 60
    /// The editor budget for a 1 MB paste.
    public static let editorPasteBudget = 0.1
    /// The editor budget for the next match of a search (issue 19).
    public static let findNextBudget = 1e-3

    /// Measures the seven keystroke rows.
    ///
    /// - Parameter batches: Samples per row; each sample averages as many calls as fill about 10 ms.
    public static func rows(batches: Int) -> [ComparisonRow] {
        let integer = IntegerFormat(range: 0...999_999)
        let shortInteger = Measurement.timeCalibrated("IntegerFormat keystroke", batches: batches) {
            integer.applying("7", in: NSRange(location: 2, length: 0), to: "1234")
        }
        let shortText = TextFormat(maxLength: 40)
        let shortTyping = Measurement.timeCalibrated("TextFormat keystroke", batches: batches) {
            shortText.applying("l", in: NSRange(location: 10, length: 0), to: "Hello, wor")
        }
        let long = longText(characters: 9_999)
        let middle = long.utf16.count / 2
        let unlimited = TextFormat()
        let longTyping = Measurement.timeCalibrated("TextFormat keystroke, 10,000 characters", batches: batches) {
            unlimited.applying("e", in: NSRange(location: middle, length: 0), to: long)
        }
        // The keystroke that brings the text to its limit: the new length must be counted.
        let limited = TextFormat(maxLength: 10_000)
        let typingAtLimit = Measurement.timeCalibrated("TextFormat keystroke, 10,000 characters at the limit", batches: batches) {
            limited.applying("e", in: NSRange(location: middle, length: 0), to: long)
        }

        let document = script(lines: 10_000)
        var typing = EditorFrameProbe(script: document, columns: 120, rows: 40)
        for _ in 0..<(typing.lineCount / 2 / 38) { _ = typing.press(.pageDown) }
        _ = typing.press(.end)
        var bytesPerKeystroke: [Int] = []
        let keystroke = Measurement.timeCalibrated("editor keystroke", batches: batches) {
            let frame = typing.type("x")
            if bytesPerKeystroke.count < 1_000 { bytesPerKeystroke.append(frame.count) }
            return frame.count
        }
        let paste = script(bytes: 1 << 20)
        var pasteSamples: [Double] = []
        for _ in 0..<max(batches / 4, 3) {
            var pasting = EditorFrameProbe(script: document, columns: 120, rows: 40)
            for _ in 0..<(pasting.lineCount / 2 / 38) { _ = pasting.press(.pageDown) }
            let start = DispatchTime.now().uptimeNanoseconds
            Measurement.keep(pasting.paste(paste).count)
            pasteSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let pasting = Measurement(name: "editor paste", samples: pasteSamples)
        let medianBytes = bytesPerKeystroke.sorted()[bytesPerKeystroke.count / 2]
        return [
            .budget(title: "field keystroke: IntegerFormat, 4 digits (vs budget 2 us)", subject: shortInteger, budget: shortFieldBudget),
            .budget(title: "field keystroke: TextFormat, 10 chars (vs budget 2 us)", subject: shortTyping, budget: shortFieldBudget),
            .budget(title: "field keystroke: TextFormat, 10,000 chars, no limit (vs budget 50 us)", subject: longTyping, budget: longTextBudget),
            .budget(title: "field keystroke: TextFormat, 10,000 chars, reaching maxLength (vs 50 us)",
                    subject: typingAtLimit, budget: longTextBudget),
            .budget(title: "editor keystroke to written frame, 10,000 lines, \(medianBytes) bytes/frame (vs 16.7 ms)",
                    subject: keystroke, budget: editorKeystrokeBudget),
            .budget(title: "editor 1 MB paste to written frame, into 10,000 lines (vs 100 ms)",
                    subject: pasting, budget: editorPasteBudget),
            findNextRow(batches: batches),
        ]
    }

    /// The find bar's Enter in a 10,000-line script whose two matches are 5,000 lines apart,
    /// to the written frame, against issue 19's 1 ms.
    public static func findNextRow(batches: Int) -> ComparisonRow {
        var probe = findNextProbe()
        let next = Measurement.timeCalibrated("editor find next", batches: batches) {
            probe.findNext().count
        }
        return .budget(title: "editor find next match to written frame, 10,000 lines, 5,000 apart (vs 1 ms)",
                       subject: next, budget: findNextBudget)
    }

    /// An editor on 10,000 lines with `needle` on lines 2,501 and 7,501, its find bar open on it.
    static func findNextProbe() -> EditorFrameProbe {
        var lines = script(lines: 10_000).components(separatedBy: "\n")
        for row in [2_500, 7_500] { lines[row] = "  const needle = lines[\(row)];" }
        var probe = EditorFrameProbe(script: lines.joined(separator: "\n"), columns: 120, rows: 40)
        _ = probe.find("needle")
        return probe
    }

    /// Prose of `characters` characters, mostly ASCII with accents, CJK and emoji mixed in, as
    /// a comment box or a description field holds.
    static func longText(characters: Int) -> String {
        let sentence = "Le café du coin ouvre à 7 h, 東京 aussi 🙂; the ñandú naps. "
        let repeated = String(repeating: sentence, count: characters / sentence.count + 1)
        return String(repeated.prefix(characters))
    }

    /// A JavaScript file of `lines` lines of typical length (about 40 characters).
    static func script(lines: Int) -> String {
        var text = ""
        text.reserveCapacity(lines * 44)
        for line in 0..<lines {
            text += codeLines[line % codeLines.count]
            text += "\n"
        }
        return text
    }

    /// JavaScript of about `bytes` bytes, whole lines.
    static func script(bytes: Int) -> String {
        var text = ""
        text.reserveCapacity(bytes + 64)
        var line = 0
        while text.utf8.count < bytes {
            text += codeLines[line % codeLines.count]
            text += "\n"
            line += 1
        }
        return text
    }

    private static let codeLines = [
        "function tidy(root) {",
        "  const hidden = [];",
        "  for (const node of root.querySelectorAll('.promo, aside')) {",
        "    if (node.closest('main')) continue;",
        "    node.style.display = 'none';",
        "    hidden.push(node.id || node.className);",
        "  }",
        "  // Links that open a new tab must not reach back to this page.",
        "  document.querySelectorAll('a[target=_blank]').forEach(a => a.rel = 'noopener');",
        "  return { hidden, title: document.title };",
        "}",
        "",
    ]
}
