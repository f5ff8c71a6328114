/// A coloured span of one line: character (grapheme) offsets `range` in that line.
struct SyntaxToken: Hashable, Sendable {
    var kind: SyntaxKind
    var range: Range<Int>
}
