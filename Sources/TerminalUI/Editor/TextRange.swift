/// A span of the document from `start` up to (not including) `end`, with `start <= end`.
struct TextRange: Hashable, Sendable {
    let start: TextPosition
    let end: TextPosition

    /// The range between two positions in either order.
    init(_ first: TextPosition, _ second: TextPosition) {
        start = min(first, second)
        end = max(first, second)
    }

    var isEmpty: Bool { start == end }
}
