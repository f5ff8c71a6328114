/// The lines an editor shows around its caret, with line numbers: what a keystroke must
/// recompute before the next frame can be drawn.
///
/// This stands in for the terminal editor's viewport in the benchmarks, over a plain `String`:
/// the caret's line number comes from counting the line breaks before it, the window is the
/// `rows` lines centred on the caret, and each shown line is cut to `columns` characters.
///
/// ```swift
/// let frame = EditorFrame(text: "a\nb\nc", caretUTF16Offset: 2, rows: 2, columns: 80)
/// frame.caretLine         // 2
/// frame.firstLineNumber   // 1
/// frame.lines             // ["    1  a", "    2  b"]
/// ```
public struct EditorFrame: Sendable, Hashable {
    /// The 1-based number of the line holding the caret.
    public let caretLine: Int
    /// The 1-based number of the first line shown.
    public let firstLineNumber: Int
    /// The shown lines, each with its number in a gutter.
    public let lines: [String]

    /// Computes the frame for `text` with the caret at `caretUTF16Offset`.
    ///
    /// - Parameters:
    ///   - text: The whole document.
    ///   - caretUTF16Offset: The caret, in UTF-16 code units (as ``TextInput`` counts); clamped to the text.
    ///   - rows: How many lines the window shows.
    ///   - columns: How many characters of each line are shown.
    public init(text: String, caretUTF16Offset: Int, rows: Int, columns: Int) {
        let utf16 = text.utf16
        let clamped = min(max(caretUTF16Offset, 0), utf16.count)
        var caret = utf16.index(utf16.startIndex, offsetBy: clamped)
        // Inside a surrogate pair: the caret goes before the whole scalar.
        if caret.samePosition(in: text.unicodeScalars) == nil { caret = utf16.index(before: caret) }
        let utf8 = text.utf8
        let newline = UInt8(ascii: "\n")
        func lineStart(before index: String.Index) -> String.Index {
            utf8[..<index].lastIndex(of: newline).map { utf8.index(after: $0) } ?? utf8.startIndex
        }
        var caretLine = 1
        for byte in utf8[..<caret] where byte == newline { caretLine += 1 }
        // Half a window above the caret's line, fewer at the top of the document.
        var start = lineStart(before: caret)
        var linesAbove = 0
        while linesAbove < rows / 2, start > utf8.startIndex {
            start = lineStart(before: utf8.index(before: start))
            linesAbove += 1
        }
        let firstLineNumber = caretLine - linesAbove
        var lines: [String] = []
        lines.reserveCapacity(rows)
        var next = start
        while lines.count < rows {
            let lineEnd = utf8[next...].firstIndex(of: newline) ?? utf8.endIndex
            let number = String(firstLineNumber + lines.count)
            let gutter = String(repeating: " ", count: max(5 - number.count, 0)) + number + "  "
            lines.append(gutter + String(text[next..<lineEnd].prefix(columns)))
            guard lineEnd < utf8.endIndex else { break }
            next = utf8.index(after: lineEnd)
        }
        self.caretLine = caretLine
        self.firstLineNumber = firstLineNumber
        self.lines = lines
    }
}
