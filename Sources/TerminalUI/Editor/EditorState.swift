/// The whole editor as a value: document, cursor, history, panels and prompts.
///
/// It is a pure state machine: ``handle(_:)`` takes one ``EditorEvent`` and returns the
/// ``EditorEffect``s for the I/O shell to perform (run the script, save, quit), and
/// ``EditorScreen`` draws it without changing it. Nothing here reads or writes a file
/// descriptor, so every behaviour is testable by feeding events.
struct EditorState: Sendable {
    let configuration: EditorConfiguration
    let features: EditorFeatures
    let formSettings: ScriptFormSettings
    var page: PageInfo
    var size: TerminalSize

    // MARK: Document

    private(set) var buffer: TextBuffer
    var selection: Selection
    /// The display column that up and down try to keep, across shorter lines.
    var preferredColumn: Int?
    var history = UndoHistory()
    /// The history revision whose text was last saved or loaded.
    var savedRevision: Int
    var clipboard: Clipboard?
    var highlighter = SyntaxHighlighter()
    var searchIndex = SearchIndex()
    var viewport = Viewport()
    /// The script on screen, which Ctrl-S saves into; `nil` when the host keeps no scripts.
    var document: ScriptDocument?

    // MARK: Interface

    var overlay: Overlay = .none
    /// The program's questions not yet shown (one question is on screen at a time).
    var waitingQuestions: [HostQuestion] = []
    /// The find, replace or go-to-line bar above the status line.
    var prompt: Prompt?
    /// Whether keys go to the editor or to the result panel.
    var focus: Focus = .editor
    /// The runs of this session; shown while ``isPanelOpen``.
    var panel = ResultPanel()
    var isPanelOpen = false
    var message: StatusMessage?
    /// The run under way.
    var running: RunningScript?
    /// The text of the last run, for Alt-R.
    var lastRunScript: String?
    var nextRunID = 1
    var pendingRequest: HostRequest?
    /// What to do once the save under way succeeds.
    var afterSave: AfterSave?
    /// The command of the previous key, so pressing a selection key again grows the selection.
    var lastCommand: EditorCommand?
    /// The search text last used, for F3 when the bar is closed.
    var lastSearch: String = ""
    /// The find bar's matches in the rows on screen, by row, worked out after each event so
    /// that drawing only reads them.
    var searchHighlights: [Int: [Range<Int>]] = [:]
    /// Set when the editor has ended; the shell stops after the effect that carries it.
    private(set) var outcome: EditorOutcome?

    init(page: PageInfo, script: String, size: TerminalSize, configuration: EditorConfiguration = EditorConfiguration(),
         features: EditorFeatures = .all, formSettings: ScriptFormSettings = ScriptFormSettings(), document: ScriptDocument? = nil,
         recovered: RecoveredText? = nil) {
        self.page = page
        self.size = size
        self.configuration = configuration
        self.features = features
        self.formSettings = formSettings
        self.document = document
        buffer = TextBuffer(script)
        selection = Selection(caret: .zero)
        savedRevision = 0
        if let recovered { overlay = .question(.restoreRecovered(recovered)) }
        learnVisibleHighlighting()
    }

    var cursor: TextPosition { selection.head }
    var text: String { buffer.text }
    var lines: [[Character]] { buffer.lines }
    var hasUnsavedChanges: Bool { history.revision != savedRevision }
    var indentUnit: String { String(repeating: " ", count: configuration.indentWidth) }
    var isRunning: Bool { running != nil }

    var layout: EditorLayout {
        EditorLayout(size: size, lineCount: buffer.lines.count, showsLineNumbers: configuration.showsLineNumbers,
                     panel: isPanelOpen ? panel : nil, barRows: prompt?.rows ?? 0)
    }

    /// Whether work was put off that idle time should finish.
    var hasIdleWork: Bool {
        highlighter.needsLearning(through: viewport.top + layout.editor.height - 1, lineCount: buffer.lines.count)
    }

    /// Records how the editor ended; the caller hands the outcome to the shell in a
    /// ``EditorEffect/quit(_:)``.
    mutating func finish(_ reason: EditorOutcome.Reason) -> EditorOutcome {
        let result = EditorOutcome(script: buffer.text, hasUnsavedChanges: hasUnsavedChanges, reason: reason, document: document)
        outcome = result
        return result
    }

    // MARK: Applying edits

    /// Replaces `range` with `text`, records it for undo and moves the cursor after it.
    mutating func replace(_ range: TextRange, with text: String, kind: EditKind) {
        let before = selection
        let edit = applyWithoutRecording(range, with: text)
        selection = Selection(caret: edit.insertedEnd)
        preferredColumn = nil
        history.record(edit, kind: kind, selectionBefore: before, selectionAfter: selection)
    }

    /// Applies several replacements as one undo step. Each range is in the coordinates of the
    /// document as left by the previous replacement.
    mutating func replaceAll(_ replacements: [(TextRange, String)], selectionAfter: (([AppliedEdit]) -> Selection)? = nil) {
        let before = selection
        var edits: [AppliedEdit] = []
        for (range, text) in replacements {
            edits.append(applyWithoutRecording(range, with: text))
        }
        if let selectionAfter {
            selection = selectionAfter(edits)
        } else if let last = edits.last {
            selection = Selection(caret: last.insertedEnd)
        }
        selection = clampedSelection(selection)
        preferredColumn = nil
        history.recordGroup(edits, selectionBefore: before, selectionAfter: selection)
    }

    /// Replaces the whole document (an example, their version after a conflict), as one undo step.
    mutating func replaceDocument(with text: String) {
        replaceAll([(TextRange(.zero, buffer.endPosition), text)], selectionAfter: { _ in Selection(caret: .zero) })
        viewport = Viewport()
    }

    /// Starts another script: its text, a fresh undo history, and nothing unsaved.
    mutating func load(_ opened: OpenedScript) {
        let edit = TextRange(.zero, buffer.endPosition)
        let rows = edit.start.row...edit.end.row
        buffer = TextBuffer(opened.code)
        noteRowsReplaced(rows, insertedCount: buffer.lines.count)
        history = UndoHistory()
        savedRevision = history.revision
        selection = Selection(caret: .zero)
        preferredColumn = nil
        viewport = Viewport()
        document = opened.document
    }

    private mutating func applyWithoutRecording(_ range: TextRange, with text: String) -> AppliedEdit {
        let start = buffer.clamped(range.start)
        let end = buffer.clamped(range.end)
        let removed = buffer.text(in: TextRange(start, end))
        let insertedEnd = replaceInBuffer(TextRange(start, end), with: text)
        return AppliedEdit(start: start, removedEnd: end, insertedEnd: insertedEnd, removed: removed, inserted: text)
    }

    /// Every change to the text goes through here, so the colouring and the search index learn
    /// which rows changed.
    private mutating func replaceInBuffer(_ range: TextRange, with text: String) -> TextPosition {
        let insertedEnd = buffer.replace(range, with: text)
        noteRowsReplaced(range.start.row...range.end.row, insertedCount: insertedEnd.row - range.start.row + 1)
        return insertedEnd
    }

    private mutating func noteRowsReplaced(_ rows: ClosedRange<Int>, insertedCount: Int) {
        highlighter.replaceRows(rows, insertedCount: insertedCount)
        searchIndex.replaceRows(rows, insertedCount: insertedCount)
    }

    mutating func undo() {
        guard let step = history.popUndo() else {
            message = .info("Nothing to undo.")
            return
        }
        for edit in step.edits.reversed() {
            _ = replaceInBuffer(TextRange(edit.start, edit.insertedEnd), with: edit.removed)
        }
        selection = clampedSelection(step.selectionBefore)
        preferredColumn = nil
    }

    mutating func redo() {
        guard let step = history.popRedo() else {
            message = .info("Nothing to redo.")
            return
        }
        for edit in step.edits {
            _ = replaceInBuffer(TextRange(edit.start, edit.removedEnd), with: edit.inserted)
        }
        selection = clampedSelection(step.selectionAfter)
        preferredColumn = nil
    }

    func clampedSelection(_ selection: Selection) -> Selection {
        Selection(anchor: buffer.clamped(selection.anchor), head: buffer.clamped(selection.head))
    }

    // MARK: Scrolling and colouring

    /// Lines of colouring learned within one event; a longer stretch (a large paste above the
    /// screen) is finished in idle time, and the frame meanwhile colours from guesses.
    static let learningBudget = 4_000

    /// Learns the colouring of the rows on screen, within ``learningBudget`` lines.
    mutating func learnVisibleHighlighting(budget: Int = EditorState.learningBudget) {
        highlighter.learn(through: viewport.top + layout.editor.height - 1, in: buffer.lines, budget: budget)
    }

    /// Moves the viewport so the cursor is visible above the output panel.
    mutating func scrollToCursor() {
        let layout = self.layout
        let line = buffer.lines[cursor.row]
        let column = LineMetrics.displayColumn(of: cursor.column, in: line, tabWidth: configuration.indentWidth)
        let width = LineMetrics.cursorWidth(at: cursor.column, in: line, tabWidth: configuration.indentWidth)
        viewport = viewport.scrolled(toShowRow: cursor.row, column: column, width: width,
                                     visibleRows: layout.visibleTextRows, visibleColumns: layout.textArea.width)
    }

    /// Moves the cursor to a one-based line and UTF-16 column, as JavaScript engines report
    /// error positions.
    mutating func moveCursor(toLine line: Int, utf16Column column: Int?) {
        let row = min(max(0, line - 1), buffer.lines.count - 1)
        let characters = buffer.lines[row]
        var offset = 0
        var index = 0
        let target = max(0, (column ?? 1) - 1)
        while index < characters.count, offset + characters[index].utf16.count <= target {
            offset += characters[index].utf16.count
            index += 1
        }
        selection = Selection(caret: TextPosition(row: row, column: index))
        preferredColumn = nil
        history.seal()
    }
}

/// What sits in front of the editor and takes the keys.
enum Overlay: Sendable {
    case none
    /// A yes/no question in the status line.
    case question(Question)
    case examples(ListPicker, [ScriptExample])
    case scripts(ListPicker, [ScriptSummary])
    case form(ScriptForm)
    case help(HelpScreen)
    /// A save was refused because the file changed; the user chooses what to do.
    case conflict(ConflictDialog)
}

/// Where the keys go when no overlay is open.
enum Focus: Hashable, Sendable {
    case editor
    case panel
}

/// The questions the status line asks.
enum Question: Hashable, Sendable {
    /// Unsaved changes: quit anyway?
    case quit
    /// A script is running: cancel it (and recover the page)?
    case cancelRun
    /// Unsaved changes: open another script anyway?
    case discardForOpening(ScriptSummary)
    /// Text an earlier session left unsaved was found: restore it?
    case restoreRecovered(RecoveredText)
    /// The program running the editor asks something.
    case host(HostQuestion)
}

/// What follows a successful save.
enum AfterSave: Hashable, Sendable {
    case quit
    case open(ScriptSummary)
}

/// The run under way.
struct RunningScript: Hashable, Sendable {
    var id: Int
    var script: String
}

/// A one-line message in the status bar until the next key.
struct StatusMessage: Hashable, Sendable {
    var text: String
    var isError: Bool

    static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
