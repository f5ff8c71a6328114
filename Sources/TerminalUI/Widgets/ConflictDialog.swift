import Foundation
import SystemSupport

/// What the editor offers when a save was refused because the script's file changed (or went
/// away) since it was read: load their version, keep the editor's text as a new script, or see
/// both as a diff first. Nothing is written until the user picks one.
struct ConflictDialog: Sendable {
    enum Action: Hashable, Sendable {
        case none
        /// Keep editing; nothing was saved.
        case cancel
        /// Replace the text with the file's (one undo step, so Ctrl-Z brings the editor's back).
        case loadTheirs
        /// Save the editor's text as a new script.
        case keepMine
    }

    let conflict: ScriptConflict
    /// The editor's text when the save was tried.
    let mine: String
    let revision: Int
    /// The diff, once the user asked to see both.
    private(set) var diff: [LineDiff.Line]?
    private(set) var scroll = 0

    init(conflict: ScriptConflict, mine: String, revision: Int) {
        self.conflict = conflict
        self.mine = mine
        self.revision = revision
    }

    private var theirs: String? {
        if case .changed(let text) = conflict.change { return text }
        return nil
    }

    mutating func handle(_ event: KeyEvent, pageSize: Int) -> Action {
        let key: Character? = if case .character(let character) = event.key, event.modifiers.isDisjoint(with: [.control, .alt]) {
            Character(character.lowercased())
        } else {
            nil
        }
        switch (event.key, key) {
        case (.escape, _):
            if diff != nil {
                diff = nil
                return .none
            }
            return .cancel
        case (_, "r") where theirs != nil:
            return .loadTheirs
        case (_, "k"):
            return .keepMine
        case (_, "d") where theirs != nil:
            if diff == nil, let theirs {
                diff = LineDiff.lines(from: Self.split(theirs), to: Self.split(mine))
                scroll = 0
            } else {
                diff = nil
            }
        case (.up, _): scroll -= 1
        case (.down, _): scroll += 1
        case (.pageUp, _): scroll -= max(1, pageSize)
        case (.pageDown, _): scroll += max(1, pageSize)
        case (.home, _): scroll = 0
        case (.end, _): scroll = diff?.count ?? 0
        default: break
        }
        scroll = min(max(0, scroll), max(0, (diff?.count ?? 0) - max(1, pageSize)))
        return .none
    }

    private static func split(_ text: String) -> [String] {
        TextBuffer.splitLines(text).map { String($0) }
    }

    /// The choices, as the dialog and the status line list them.
    var choices: [StatusBar.Hint] {
        var hints: [StatusBar.Hint] = []
        if theirs != nil {
            hints.append(StatusBar.Hint(key: "r", label: "Load theirs"))
        }
        hints.append(StatusBar.Hint(key: "k", label: "Keep mine as a new script"))
        if theirs != nil {
            hints.append(StatusBar.Hint(key: "d", label: diff == nil ? "Show both" : "Hide the diff"))
        }
        hints.append(StatusBar.Hint(key: "Esc", label: diff == nil ? "Save nothing" : "Back"))
        return hints
    }

    var question: String {
        switch conflict.change {
        case .changed: "\(conflict.document.title) was changed by another program. Nothing was saved."
        case .deleted: "\(conflict.document.title) was deleted or moved. Nothing was saved."
        }
    }

    /// Draws the dialog in the middle of `area`, or the diff over all of it.
    func draw(into grid: inout CellGrid, area: CellRect) {
        if let diff {
            drawDiff(diff, into: &grid, frame: area)
            return
        }
        let width = min(76, area.width - 2)
        let inner = width - 4
        var lines: [(String, CellStyle)] = []
        for piece in DisplayText.wordWrapped(TerminalSafeText.escaped(question), toColumns: inner) {
            lines.append((piece, CellStyle(foreground: .yellow, attributes: .bold)))
        }
        for piece in DisplayText.wrapped(TerminalSafeText.escaped(conflict.path), toColumns: inner) {
            lines.append((piece, CellStyle(attributes: .dim)))
        }
        lines.append(("", .plain))
        let explanations: [String: String] = [
            "r": "Load theirs: your text stays one Ctrl-Z away",
            "k": "Keep mine as a new script, with the same patterns",
            "d": "Show both: a diff of theirs (−) and yours (+)",
            "Esc": "Save nothing and keep editing",
        ]
        for hint in choices {
            lines.append(("  " + hint.key.padding(toLength: 5, withPad: " ", startingAt: 0) + (explanations[hint.key] ?? hint.label), .plain))
        }
        let height = min(lines.count + 2, area.height)
        let frame = CellRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        Box.draw(into: &grid, frame: frame, title: "Not saved: the file changed")
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            grid.write(line.0, x: frame.x + 2, y: frame.y + 1 + offset, style: line.1, clip: frame.maxX - 1)
        }
    }

    private func drawDiff(_ diff: [LineDiff.Line], into grid: inout CellGrid, frame: CellRect) {
        Box.draw(into: &grid, frame: frame, title: "− theirs (on disk)   + yours (in the editor)")
        let inner = frame.insetBy(1)
        guard inner.height > 0 else { return }
        for (offset, line) in diff.dropFirst(scroll).prefix(inner.height).enumerated() {
            let (marker, style): (String, CellStyle) = switch line.kind {
            case .same: ("  ", .plain)
            case .removed: ("− ", CellStyle(foreground: .red))
            case .added: ("+ ", CellStyle(foreground: .green))
            }
            let text = DisplayText.truncated(marker + TerminalSafeText.escaped(line.text), toColumns: inner.width - 1)
            grid.write(text, x: inner.x + 1, y: inner.y + offset, style: style, clip: inner.maxX)
        }
        let changes = diff.filter { $0.kind != .same }.count
        let summary = " \(changes) changed lines · ↑↓ PgUp PgDn scroll "
        grid.write(summary, x: frame.maxX - 2 - GlyphWidth.columns(of: summary), y: frame.maxY - 1,
                   style: CellStyle(foreground: .cyan), clip: frame.maxX - 1)
    }
}
