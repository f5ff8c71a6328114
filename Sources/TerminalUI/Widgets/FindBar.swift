/// The find bar (Ctrl-F), with a replace field when it was opened for replacing (Ctrl-\).
///
/// It holds what was typed and what the search found; the editor state does the searching.
struct FindBar: Sendable {
    enum Field: Hashable, Sendable {
        case query
        case replacement
    }

    var query: FormTextField
    /// Whether the query is the text the bar opened with (the last search, or the selection),
    /// not yet edited: it is drawn selected, and as in micro and the browsers' find bars the
    /// first character typed or pasted replaces it, Backspace or Delete clears it, and Enter
    /// searches it again.
    var isQueryOffered: Bool
    /// The replace field, when replacing.
    var replacement: FormTextField?
    var focus: Field = .query
    var matchCase: Bool
    /// How many matches the script holds (at most ``countLimit``).
    var matchCount = 0
    /// Which of them is selected, counting from 1; 0 when none is.
    var currentOrdinal = 0
    /// The document's revision when the matches were counted; an edit since means counting again.
    var countedRevision: Int?
    /// Where the search started, so typing more of the query refines it from there.
    var origin: TextPosition

    /// Matches counted at most, so a one-letter query in a huge script stays quick.
    static let countLimit = 99_999

    init(query: String, replacing: Bool, matchCase: Bool, origin: TextPosition) {
        self.query = FormTextField(label: "Find", text: query)
        isQueryOffered = !query.isEmpty
        replacement = replacing ? FormTextField(label: "Replace", text: "") : nil
        focus = .query
        self.matchCase = matchCase
        self.origin = origin
    }

    var rows: Int { replacement == nil ? 1 : 2 }

    /// Sends a field-editing key to the focused field; returns whether it used it.
    ///
    /// While the query is offered, a typed character replaces it and Backspace or Delete clears
    /// it; any other key the field uses (the arrows, Home, End) accepts it for editing.
    mutating func edit(_ event: KeyEvent) -> Bool {
        switch focus {
        case .query:
            guard isQueryOffered else { return query.handle(event) }
            switch (event.key, event.modifiers) {
            case (.backspace, _), (.delete, _):
                clearOfferedQuery()
                return true
            case (.character, let modifiers) where modifiers.isDisjoint(with: [.control, .alt]):
                clearOfferedQuery()
                return query.handle(event)
            default:
                guard query.handle(event) else { return false }
                isQueryOffered = false
                return true
            }
        case .replacement:
            return replacement?.handle(event) ?? false
        }
    }

    mutating func paste(_ text: String) {
        switch focus {
        case .query:
            if isQueryOffered { clearOfferedQuery() }
            query.paste(text)
        case .replacement:
            replacement?.paste(text)
        }
    }

    private mutating func clearOfferedQuery() {
        query.replace(0..<query.text.count, with: "")
        isQueryOffered = false
    }

    /// What the bar says about the matches.
    var status: String {
        guard !query.text.isEmpty else { return "" }
        if matchCount == 0 { return "No match" }
        let total = matchCount >= Self.countLimit ? "\(Self.countLimit)+" : "\(matchCount)"
        return currentOrdinal > 0 ? "\(currentOrdinal) of \(total)" : "\(total) matches"
    }

    func draw(into grid: inout CellGrid, frame: CellRect) -> CursorPlacement? {
        guard !frame.isEmpty else { return nil }
        grid.fill(frame, style: CellStyle(attributes: .reverse))
        let option = matchCase ? "[Aa] case" : "[aa] any case"
        let info = " " + status + "  " + option + " "
        let infoWidth = GlyphWidth.columns(of: info)
        let fieldWidth = max(10, frame.width - infoWidth - 1)
        var cursor: CursorPlacement?
        let queryCursor = query.draw(into: &grid, x: frame.x + 1, y: frame.y, width: fieldWidth, labelWidth: 9, focused: focus == .query,
                                     textSelected: isQueryOffered)
        if focus == .query { cursor = queryCursor }
        let statusStyle = CellStyle(attributes: matchCount == 0 && !query.text.isEmpty ? [.reverse, .bold] : .reverse)
        grid.write(info, x: frame.maxX - infoWidth, y: frame.y, style: statusStyle, clip: frame.maxX)
        if let replacement, frame.height > 1 {
            let replaceCursor = replacement.draw(into: &grid, x: frame.x + 1, y: frame.y + 1, width: fieldWidth, labelWidth: 9,
                                                 focused: focus == .replacement)
            if focus == .replacement { cursor = replaceCursor }
        }
        return cursor
    }
}

/// The bar above the status line: find (and replace), or go to a line.
enum Prompt: Sendable {
    case find(FindBar)
    case goToLine(FormTextField)

    var rows: Int {
        switch self {
        case .find(let bar): bar.rows
        case .goToLine: 1
        }
    }

    mutating func paste(_ text: String) {
        switch self {
        case .find(var bar):
            bar.paste(text)
            self = .find(bar)
        case .goToLine(var field):
            field.paste(text)
            self = .goToLine(field)
        }
    }

    func draw(into grid: inout CellGrid, frame: CellRect) -> CursorPlacement? {
        switch self {
        case .find(let bar):
            return bar.draw(into: &grid, frame: frame)
        case .goToLine(let field):
            grid.fill(frame, style: CellStyle(attributes: .reverse))
            return field.draw(into: &grid, x: frame.x + 1, y: frame.y, width: min(40, frame.width - 2), labelWidth: 12, focused: true)
        }
    }
}
