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
    var viewport = Viewport()

    // MARK: Interface

    var overlay: Overlay = .none
    var panel: OutputPanel?
    var message: StatusMessage?
    var isRunning = false
    var pendingRequest: PendingRequest?
    /// The named script last opened or saved: the form starts from it.
    var currentScript: NamedScript?
    /// Set when the editor has ended; the shell stops after the effect that carries it.
    private(set) var outcome: EditorOutcome?

    init(page: PageInfo, script: String, size: TerminalSize, configuration: EditorConfiguration = EditorConfiguration(),
         features: EditorFeatures = .all, formSettings: ScriptFormSettings = ScriptFormSettings()) {
        self.page = page
        self.size = size
        self.configuration = configuration
        self.features = features
        self.formSettings = formSettings
        buffer = TextBuffer(script)
        selection = Selection(caret: .zero)
        savedRevision = 0
        learnVisibleHighlighting()
    }

    var cursor: TextPosition { selection.head }
    var text: String { buffer.text }
    var lines: [[Character]] { buffer.lines }
    var hasUnsavedChanges: Bool { history.revision != savedRevision }
    var indentUnit: String { String(repeating: " ", count: configuration.indentWidth) }

    var layout: EditorLayout {
        EditorLayout(size: size, lineCount: buffer.lines.count, showsLineNumbers: configuration.showsLineNumbers, panel: panel)
    }

    /// Records how the editor ended; the caller hands the outcome to the shell in a
    /// ``EditorEffect/quit(_:)``.
    mutating func finish(_ reason: EditorOutcome.Reason) -> EditorOutcome {
        let result = EditorOutcome(script: buffer.text, hasUnsavedChanges: hasUnsavedChanges, reason: reason,
                                   scriptName: currentScript?.name)
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
        selection = Selection(anchor: buffer.clamped(selection.anchor), head: buffer.clamped(selection.head))
        preferredColumn = nil
        history.recordGroup(edits, selectionBefore: before, selectionAfter: selection)
    }

    /// Replaces the whole document (an example or a named script), as one undo step.
    mutating func replaceDocument(with text: String) {
        replaceAll([(TextRange(.zero, buffer.endPosition), text)], selectionAfter: { _ in Selection(caret: .zero) })
        viewport = Viewport()
    }

    private mutating func applyWithoutRecording(_ range: TextRange, with text: String) -> AppliedEdit {
        let start = buffer.clamped(range.start)
        let end = buffer.clamped(range.end)
        let removed = buffer.text(in: TextRange(start, end))
        let insertedEnd = buffer.replace(TextRange(start, end), with: text)
        highlighter.invalidate(fromRow: start.row)
        return AppliedEdit(start: start, removedEnd: end, insertedEnd: insertedEnd, removed: removed, inserted: text)
    }

    mutating func undo() {
        guard let step = history.popUndo() else {
            message = .info("Nothing to undo.")
            return
        }
        for edit in step.edits.reversed() {
            _ = buffer.replace(TextRange(edit.start, edit.insertedEnd), with: edit.removed)
            highlighter.invalidate(fromRow: edit.start.row)
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
            _ = buffer.replace(TextRange(edit.start, edit.removedEnd), with: edit.inserted)
            highlighter.invalidate(fromRow: edit.start.row)
        }
        selection = clampedSelection(step.selectionAfter)
        preferredColumn = nil
    }

    private func clampedSelection(_ selection: Selection) -> Selection {
        Selection(anchor: buffer.clamped(selection.anchor), head: buffer.clamped(selection.head))
    }

    // MARK: Scrolling

    /// Learns the syntax colouring of every row the editor shows, so drawing only reads it.
    mutating func learnVisibleHighlighting() {
        highlighter.learnEntryStates(through: viewport.top + layout.editor.height - 1, in: buffer.lines)
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
    /// "Unsaved changes: quit?" in the status line.
    case confirmQuit
    case examples(ListPicker, [ScriptExample])
    case scripts(ListPicker)
    case form(ScriptForm)
}

/// A host request the editor is waiting for, so a second press does not send it twice.
enum PendingRequest: Hashable, Sendable {
    case examples
    case scriptNames
    case openScript
    case saveForSite(quitAfterwards: Bool)
}

/// A one-line message in the status bar until the next key.
struct StatusMessage: Hashable, Sendable {
    var text: String
    var isError: Bool

    static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
