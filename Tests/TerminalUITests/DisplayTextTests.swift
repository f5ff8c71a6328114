import Testing
@testable import TerminalUI

@Suite("Display text: wrapping prose at spaces")
struct DisplayTextTests {
    struct Wrap: Sendable, CustomStringConvertible {
        var text: String
        var columns: Int
        var lines: [String]
        var description: String { "\(text.debugDescription) in \(columns)" }
    }

    static let wraps: [Wrap] = [
        Wrap(text: "it has no path: add /* after the host", columns: 12, lines: ["it has no", "path: add /*", "after the", "host"]),
        Wrap(text: "fits whole", columns: 10, lines: ["fits whole"]),
        // Only a word wider than the line is broken, and it fills each line it takes.
        Wrap(text: "see https://example.com/a/very/long/path now", columns: 10,
             lines: ["see", "https://ex", "ample.com/", "a/very/lon", "g/path now"]),
        // The spaces at a break are dropped; between words and before the first they are kept.
        Wrap(text: "  two  spaces   apart", columns: 9, lines: ["  two", "spaces", "apart"]),
        Wrap(text: "a  b", columns: 9, lines: ["a  b"]),
        // Newlines start lines; an empty paragraph is an empty line.
        Wrap(text: "one two\n\nthree", columns: 4, lines: ["one", "two", "", "thre", "e"]),
        // Wide characters count two columns.
        Wrap(text: "東京 東京都", columns: 5, lines: ["東京", "東京", "都"]),
    ]

    @Test(arguments: wraps)
    func wrapsAtWordBoundaries(_ wrap: Wrap) {
        let lines = DisplayText.wordWrapped(wrap.text, toColumns: wrap.columns)
        #expect(lines == wrap.lines)
        #expect(lines.allSatisfy { GlyphWidth.columns(of: $0) <= wrap.columns }, "\(lines)")
    }

    @Test func noRoomGivesNoLines() {
        #expect(DisplayText.wordWrapped("text", toColumns: 0).isEmpty)
    }
}
