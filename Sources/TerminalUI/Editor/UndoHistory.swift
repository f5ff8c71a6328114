/// Undo and redo, with typed runs coalesced into one step per word.
///
/// Steps store the edits themselves (the removed and inserted text), not snapshots of the
/// document, so a 1 MB paste costs one step holding that megabyte, and undoing it is one
/// replacement. The history keeps at most ``stepLimit`` steps and ``byteBudget`` bytes of text,
/// dropping the oldest steps first.
struct UndoHistory: Sendable {
    static let stepLimit = 1000
    static let byteBudget = 64 << 20

    private(set) var undoSteps: [UndoStep] = []
    private(set) var redoSteps: [UndoStep] = []
    private var nextID = 1
    /// The revision of the document before the oldest step still kept.
    private var floorRevision = 0
    /// Whether the newest step must not take further edits (the cursor moved, or it was not
    /// a typing or deleting run).
    private var isSealed = true
    private var storedBytes = 0

    init() {}

    /// Identifies the current document state: equal revisions mean equal text, so the editor
    /// compares it with the revision it last saved to know whether there are unsaved changes.
    var revision: Int { undoSteps.last?.id ?? floorRevision }

    var canUndo: Bool { !undoSteps.isEmpty }
    var canRedo: Bool { !redoSteps.isEmpty }

    /// Ends the current typing or deleting run, so the next edit starts a new step.
    mutating func seal() {
        isSealed = true
    }

    /// Records one applied edit, joining it to the newest step when it continues a run.
    mutating func record(_ edit: AppliedEdit, kind: EditKind, selectionBefore: Selection, selectionAfter: Selection) {
        redoSteps.removeAll()
        if !isSealed, kind != .other, var last = undoSteps.last, last.kind == kind,
           let previous = last.edits.last, let merged = Self.merge(previous, edit, kind: kind) {
            storedBytes -= last.storedSize
            last.edits[last.edits.count - 1] = merged
            last.selectionAfter = selectionAfter
            last.id = takeID()
            storedBytes += last.storedSize
            undoSteps[undoSteps.count - 1] = last
            return
        }
        push(UndoStep(id: takeID(), kind: kind, edits: [edit], selectionBefore: selectionBefore, selectionAfter: selectionAfter))
        isSealed = kind == .other
    }

    /// Records several edits applied together (indenting lines, a newline with indentation)
    /// as one step.
    mutating func recordGroup(_ edits: [AppliedEdit], selectionBefore: Selection, selectionAfter: Selection) {
        guard !edits.isEmpty else { return }
        redoSteps.removeAll()
        push(UndoStep(id: takeID(), kind: .other, edits: edits, selectionBefore: selectionBefore, selectionAfter: selectionAfter))
        isSealed = true
    }

    /// Takes the newest step for undoing; it moves to the redo stack.
    mutating func popUndo() -> UndoStep? {
        guard let step = undoSteps.popLast() else { return nil }
        storedBytes -= step.storedSize
        redoSteps.append(step)
        isSealed = true
        return step
    }

    /// Takes the newest undone step for redoing; it moves back to the undo stack.
    mutating func popRedo() -> UndoStep? {
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        storedBytes += step.storedSize
        isSealed = true
        return step
    }

    private mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func push(_ step: UndoStep) {
        undoSteps.append(step)
        storedBytes += step.storedSize
        while undoSteps.count > 1, undoSteps.count > Self.stepLimit || storedBytes > Self.byteBudget {
            let dropped = undoSteps.removeFirst()
            storedBytes -= dropped.storedSize
            floorRevision = dropped.id
        }
    }

    /// Joins an edit to the previous one of a run, or returns nil when it does not continue it.
    static func merge(_ previous: AppliedEdit, _ next: AppliedEdit, kind: EditKind) -> AppliedEdit? {
        switch kind {
        case .typing:
            guard next.removed.isEmpty, next.start == previous.insertedEnd else { return nil }
            // A new word after a space starts a new step, so undo removes a word at a time.
            if let last = previous.inserted.last, last.isWhitespace,
               let first = next.inserted.first, !first.isWhitespace {
                return nil
            }
            var merged = previous
            merged.inserted += next.inserted
            merged.insertedEnd = next.insertedEnd
            return merged
        case .deletingBackward:
            guard previous.inserted.isEmpty, next.inserted.isEmpty, next.removedEnd == previous.start else { return nil }
            return AppliedEdit(start: next.start, removedEnd: previous.removedEnd, insertedEnd: next.start,
                            removed: next.removed + previous.removed, inserted: "")
        case .deletingForward:
            guard previous.inserted.isEmpty, next.inserted.isEmpty, next.start == previous.start else { return nil }
            let removed = previous.removed + next.removed
            return AppliedEdit(start: previous.start, removedEnd: previous.start.advanced(over: removed),
                            insertedEnd: previous.start, removed: removed, inserted: "")
        case .other:
            return nil
        }
    }
}

/// A group of edits that one undo reverts, with the selections to restore around it.
struct UndoStep: Hashable, Sendable {
    /// Identifies the document state after this step; see ``UndoHistory/revision``. A step
    /// that grows by coalescing gets a new one, since the text it leads to changed.
    var id: Int
    var kind: EditKind
    var edits: [AppliedEdit]
    var selectionBefore: Selection
    var selectionAfter: Selection

    /// The bytes of text held for undo, to keep the history within its memory budget.
    var storedSize: Int {
        edits.reduce(0) { $0 + $1.removed.utf8.count + $1.inserted.utf8.count }
    }
}

/// One replacement as it was applied: enough to undo it and to redo it.
struct AppliedEdit: Hashable, Sendable {
    /// Where the replacement started.
    var start: TextPosition
    /// The end of the replaced range before the edit.
    var removedEnd: TextPosition
    /// The end of the inserted text after the edit.
    var insertedEnd: TextPosition
    /// The text the replacement removed; undo puts it back.
    var removed: String
    /// The text the replacement inserted; redo inserts it again.
    var inserted: String
}

/// What kind of change an edit was, which decides whether it joins the previous undo step.
enum EditKind: Hashable, Sendable {
    /// A typed character: consecutive ones form one step per word.
    case typing
    /// Backspace: consecutive ones form one step.
    case deletingBackward
    /// Delete: consecutive ones form one step.
    case deletingForward
    /// Anything else (paste, cut, indent, newline, replacing the document): a step of its own.
    case other
}
