/// Colours the lines of a document, remembering each line's entry state.
///
/// Entry states are learned from the top and cached. The editor's state machine learns them
/// for the rows on screen after every event (``learnEntryStates(through:in:)``), so drawing
/// only reads: a frame tokenizes each visible line once and changes nothing. An edit calls
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

    /// Learns the entry states of every row up to `row`, tokenizing from the last one known.
    mutating func learnEntryStates(through row: Int, in lines: [[Character]]) {
        let target = min(row, lines.count - 1)
        while entryStates.count <= target {
            let previous = entryStates.count - 1
            entryStates.append(JavaScriptTokenizer.tokenize(lines[previous], from: entryStates[previous]).end)
        }
    }

    /// The coloured spans of line `row` of `lines` (none for a line over ``colouringLimit``).
    func tokens(forRow row: Int, in lines: [[Character]]) -> [SyntaxToken] {
        guard row >= 0, row < lines.count, lines[row].count <= Self.colouringLimit else { return [] }
        return JavaScriptTokenizer.tokenize(lines[row], from: entryState(forRow: row, in: lines)).tokens
    }

    /// The lexer state at the start of `row`: the learned one, or, for a row past them, worked
    /// out from the last learned one without keeping what that finds.
    func entryState(forRow row: Int, in lines: [[Character]]) -> LexerState {
        let target = max(0, min(row, lines.count - 1))
        if target < entryStates.count { return entryStates[target] }
        var state = entryStates[entryStates.count - 1]
        for previous in (entryStates.count - 1)..<target {
            state = JavaScriptTokenizer.tokenize(lines[previous], from: state).end
        }
        return state
    }

    /// How many rows have a known entry state (for tests of the incremental behaviour).
    var knownRowCount: Int { entryStates.count }
}
