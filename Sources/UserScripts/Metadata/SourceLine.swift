/// Where one line of a script's text is: its content and the end of its line break.
///
/// Lines are located by byte so the original text, with whatever mix of `\n` and `\r\n` it has,
/// is never rebuilt: edits replace whole lines and keep every other byte.
struct SourceLine: Hashable, Sendable {
    /// The line without its line break.
    let content: Range<String.Index>
    /// Just after the line break (or the end of the text for a last line without one).
    let end: String.Index

    static func split(_ text: String) -> [SourceLine] {
        var lines: [SourceLine] = []
        let bytes = text.utf8
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                var contentEnd = index
                if contentEnd > lineStart {
                    let previous = bytes.index(before: index)
                    if bytes[previous] == UInt8(ascii: "\r") { contentEnd = previous }
                }
                let next = bytes.index(after: index)
                lines.append(SourceLine(content: lineStart..<contentEnd, end: next))
                lineStart = next
            }
            index = bytes.index(after: index)
        }
        if lineStart < bytes.endIndex {
            lines.append(SourceLine(content: lineStart..<bytes.endIndex, end: bytes.endIndex))
        }
        return lines
    }
}
