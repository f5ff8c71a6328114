/// Where one line of a script's text is: its content and the end of its line break.
///
/// Lines are located by byte so the original text, with whatever mix of `\n` and `\r\n` it has,
/// is never rebuilt: edits replace whole lines and keep every other byte.
struct SourceLine: Hashable, Sendable {
    /// The line without its line break.
    let content: Range<String.Index>
    /// Just after the line break (or the end of the text for a last line without one).
    let end: String.Index

    /// The lines of a text, found one at a time, so that a reader can stop at the end of the
    /// metadata block without scanning a large script's body.
    struct Lines: Sequence, IteratorProtocol {
        private let bytes: String.UTF8View
        private var lineStart: String.Index

        init(_ text: String) {
            bytes = text.utf8
            lineStart = bytes.startIndex
        }

        mutating func next() -> SourceLine? {
            guard lineStart < bytes.endIndex else { return nil }
            guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                defer { lineStart = bytes.endIndex }
                return SourceLine(content: lineStart..<bytes.endIndex, end: bytes.endIndex)
            }
            var contentEnd = newline
            if contentEnd > lineStart {
                let previous = bytes.index(before: newline)
                if bytes[previous] == UInt8(ascii: "\r") { contentEnd = previous }
            }
            let next = bytes.index(after: newline)
            defer { lineStart = next }
            return SourceLine(content: lineStart..<contentEnd, end: next)
        }
    }
}
