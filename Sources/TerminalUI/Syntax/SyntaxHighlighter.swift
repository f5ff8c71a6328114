import JavaScriptSyntax

/// Colours the lines of a document, remembering the lexer state each line starts in.
///
/// The state at the start of a line depends on every line above it, so the highlighter learns
/// states from the top: rows below ``exactRowCount`` have exact states. An edit keeps the
/// states of the rows above it and, for the rows below, keeps the old states as guesses (rows it
/// inserted guess the state of the row where the edit began). Drawing reads whatever state a row
/// has, so a row whose exact state is not known yet is coloured from its guess; the editor learns
/// the exact states of the rows on screen after every event, within a budget of lines, and
/// finishes the rest in idle time (``learn(through:in:budget:)``). A megabyte pasted above the
/// screen is therefore drawn at once, and its colours are corrected a moment later if the guess
/// was wrong, instead of the frame waiting for the whole paste to be read.
struct SyntaxHighlighter: Sendable {
    /// Lines longer than this are drawn without colours. A minified bundle pasted as one
    /// megabyte-long line would otherwise be read whole for every frame, and colours help little
    /// in such a line; its end state is still read once, so the lines after it are right.
    static let colouringLimit = 20_000

    /// `states[row]` is the state at the start of `row` (exact or a guess).
    private var states: [LexerState] = [.initial]
    /// Rows `0..<exactRowCount` have exact states.
    private(set) var exactRowCount = 1

    init() {}

    /// Records that rows `rows` were replaced by `insertedCount` rows: the states above stay, the
    /// new rows guess the state of the first one, and the rows below keep their old states as
    /// guesses.
    mutating func replaceRows(_ rows: ClosedRange<Int>, insertedCount: Int) {
        let first = rows.lowerBound
        guard first < states.count else { return }
        exactRowCount = min(exactRowCount, first + 1)
        let guess = states[first]
        let removed = (first + 1)..<(min(rows.upperBound, states.count - 1) + 1)
        let added = max(0, insertedCount - 1)
        if removed.isEmpty {
            states.insert(contentsOf: repeatElement(guess, count: added), at: first + 1)
        } else {
            states.replaceSubrange(removed, with: repeatElement(guess, count: added))
        }
    }

    /// Whether the exact state of `row` is not known yet.
    func needsLearning(through row: Int, lineCount: Int) -> Bool {
        exactRowCount < min(row + 1, lineCount)
    }

    /// Learns exact states down to `row`, reading at most `budget` lines; returns whether it got
    /// there.
    @discardableResult
    mutating func learn(through row: Int, in lines: [[Character]], budget: Int = .max) -> Bool {
        let target = min(row, lines.count - 1)
        if states.count < lines.count {
            states.append(contentsOf: repeatElement(states[states.count - 1], count: lines.count - states.count))
        } else if states.count > lines.count {
            states.removeSubrange(lines.count...)
            exactRowCount = min(exactRowCount, lines.count)
        }
        var read = 0
        while exactRowCount <= target {
            guard read < budget else { return false }
            let previous = exactRowCount - 1
            states[exactRowCount] = LineTokenizer.endState(of: lines[previous], from: states[previous])
            exactRowCount += 1
            read += 1
        }
        return true
    }

    /// The coloured spans of line `row` of `lines` (none for a line over ``colouringLimit``).
    func tokens(forRow row: Int, in lines: [[Character]]) -> [SyntaxToken] {
        guard row >= 0, row < lines.count, lines[row].count <= Self.colouringLimit else { return [] }
        return LineTokenizer.tokenize(lines[row], from: entryState(forRow: row)).tokens
    }

    /// The state at the start of `row`: exact below ``exactRowCount``, a guess after it.
    func entryState(forRow row: Int) -> LexerState {
        row < states.count ? states[max(0, row)] : states[states.count - 1]
    }
}
