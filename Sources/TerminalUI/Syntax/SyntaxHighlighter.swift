/// Colours the lines of a document on demand, remembering each line's entry state.
///
/// Entry states are computed lazily from the top and cached. An edit calls
/// ``invalidate(fromRow:)`` with the first row it touched; rows up to and including it keep
/// their entry states, so typing near the viewport re-tokenizes only from the edited line to
/// the bottom of the screen, not the whole document.
struct SyntaxHighlighter: Sendable {
    /// Lines longer than this are drawn without colours. A minified bundle pasted as one
    /// megabyte-long line would otherwise be re-tokenized whole on every keystroke in it, and
    /// colours help little in such a line.
    static let colouringLimit = 20_000

    /// `entryStates[row]` is the state at the start of `row`, known for rows `0..<count`.
    private var entryStates: [LexerState] = [.initial]

    init() {}

    /// Forgets entry states after `row` (the state at the start of `row` itself only depends
    /// on the lines above it).
    mutating func invalidate(fromRow row: Int) {
        let keep = max(1, row + 1)
        if entryStates.count > keep {
            entryStates.removeSubrange(keep...)
        }
    }

    /// The coloured spans of line `row` of `lines` (none for a line over ``colouringLimit``).
    mutating func tokens(forRow row: Int, in lines: [[Character]]) -> [SyntaxToken] {
        guard row >= 0, row < lines.count, lines[row].count <= Self.colouringLimit else { return [] }
        let state = entryState(forRow: row, in: lines)
        return JavaScriptTokenizer.tokenize(lines[row], from: state).tokens
    }

    /// The lexer state at the start of `row`, tokenizing from the last known row if needed.
    mutating func entryState(forRow row: Int, in lines: [[Character]]) -> LexerState {
        let target = min(row, lines.count - 1)
        while entryStates.count <= target {
            let previous = entryStates.count - 1
            let end = JavaScriptTokenizer.tokenize(lines[previous], from: entryStates[previous]).end
            entryStates.append(end)
        }
        return entryStates[max(0, target)]
    }

    /// How many rows have a known entry state (for tests of the incremental behaviour).
    var knownRowCount: Int { entryStates.count }
}
