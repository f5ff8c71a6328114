import Foundation
import ScriptConsole
import SystemSupport

/// The panel that rises from the bottom after a run, and the history of the session's runs
/// behind it.
///
/// It shows one run at a time: its console output (tables, groups, stacks), then its value
/// pretty-printed or its exception, or why it could not run. Everything that came from the page
/// is escaped before it is measured and drawn. With the keys (F6 gives them to it) ↑↓ move a
/// line marker, Enter folds or unfolds the value part under it, ← and → go to earlier and later
/// runs. The lines are laid out once per run, width and folding, ahead of drawing.
struct ResultPanel: Hashable, Sendable {
    /// Runs kept; older ones are dropped.
    static let historyLimit = 50

    private(set) var runs: [RunRecord] = []
    /// The run shown.
    private(set) var selected = 0
    /// The first content line shown.
    private(set) var scroll = 0
    /// The line marker, when the panel has the keys.
    private(set) var cursor = 0
    private var cachedLines: [PanelLine] = []
    private var cachedKey: CacheKey?

    private struct CacheKey: Hashable {
        var selected: Int
        var number: Int
        var width: Int
        var toggled: Set<[Int]>
        var outcome: RunRecord.Outcome
    }

    var isEmpty: Bool { runs.isEmpty }
    var current: RunRecord? { runs.indices.contains(selected) ? runs[selected] : nil }

    /// Adds a run and shows it.
    mutating func append(_ record: RunRecord) {
        runs.append(record)
        if runs.count > Self.historyLimit {
            runs.removeFirst(runs.count - Self.historyLimit)
        }
        select(runs.count - 1)
    }

    /// Replaces the message of the newest cancelled run (what became of the page).
    /// Adds console lines logged after the last run ended to that run's output; `false` when the
    /// last run has no result to add them to.
    mutating func appendLater(_ lines: [ConsoleMessage]) -> Bool {
        guard let index = runs.indices.last, case .result(var result) = runs[index].outcome, !lines.isEmpty else { return false }
        result.console += lines
        runs[index].outcome = .result(result)
        return true
    }

    mutating func updateCancelled(with text: String) {
        guard let index = runs.lastIndex(where: { if case .cancelled = $0.outcome { true } else { false } }) else { return }
        runs[index].outcome = .cancelled(text)
    }

    private mutating func select(_ index: Int) {
        selected = min(max(0, index), max(0, runs.count - 1))
        scroll = 0
        cursor = 0
    }

    // MARK: Layout

    /// Wraps the shown run for `width` ahead of drawing, so layout and drawing reuse it.
    mutating func layOut(width: Int) {
        guard let run = current else {
            cachedLines = []
            cachedKey = nil
            return
        }
        let key = CacheKey(selected: selected, number: run.number, width: width, toggled: run.toggled, outcome: run.outcome)
        guard key != cachedKey else { return }
        cachedLines = Self.wrap(run, width: width)
        cachedKey = key
        cursor = min(cursor, max(0, cachedLines.count - 1))
    }

    private static func wrap(_ run: RunRecord, width: Int) -> [PanelLine] {
        run.lines(width: width).flatMap { $0.wrapped(toColumns: width) }
    }

    /// Content lines (escaped and wrapped to `width`).
    func lines(width: Int) -> [PanelLine] {
        if let cachedKey, cachedKey.width == width, cachedKey.selected == selected { return cachedLines }
        return current.map { Self.wrap($0, width: width) } ?? []
    }

    /// The rows the content needs (without the header).
    func contentHeight(width: Int) -> Int {
        lines(width: width).count
    }

    // MARK: Keys

    /// Scrolls by `delta` lines within what `frame` can show.
    mutating func scroll(by delta: Int, frame: CellRect) {
        let total = contentHeight(width: frame.width)
        let visible = max(1, frame.height - 1)
        scroll = min(max(0, scroll + delta), max(0, total - visible))
        cursor = min(max(cursor, scroll), scroll + visible - 1)
    }

    /// The keys of a focused panel; returns whether it used the key.
    mutating func handle(_ event: KeyEvent, frame: CellRect) -> Bool {
        let visible = max(1, frame.height - 1)
        let total = contentHeight(width: frame.width)
        switch event.key {
        case .up: moveCursor(to: cursor - 1, visible: visible, total: total)
        case .down: moveCursor(to: cursor + 1, visible: visible, total: total)
        case .pageUp: moveCursor(to: cursor - visible, visible: visible, total: total)
        case .pageDown: moveCursor(to: cursor + visible, visible: visible, total: total)
        case .home: moveCursor(to: 0, visible: visible, total: total)
        case .end: moveCursor(to: total - 1, visible: visible, total: total)
        case .left: select(selected - 1)
        case .right: select(selected + 1)
        case .enter, .character(" "): toggleFold(width: frame.width)
        default: return false
        }
        return true
    }

    private mutating func moveCursor(to line: Int, visible: Int, total: Int) {
        cursor = min(max(0, line), max(0, total - 1))
        if cursor < scroll { scroll = cursor }
        if cursor >= scroll + visible { scroll = cursor - visible + 1 }
    }

    private mutating func toggleFold(width: Int) {
        let content = lines(width: width)
        guard content.indices.contains(cursor), let path = content[cursor].foldPath, runs.indices.contains(selected) else { return }
        if runs[selected].toggled.contains(path) {
            runs[selected].toggled.remove(path)
        } else {
            runs[selected].toggled.insert(path)
        }
        layOut(width: width)
        // Keep the marker on the line that was folded or unfolded.
        if let index = cachedLines.firstIndex(where: { $0.foldPath == path }) {
            cursor = index
        }
    }

    // MARK: Drawing

    func draw(into grid: inout CellGrid, frame: CellRect, focused: Bool) {
        guard !frame.isEmpty, let run = current else { return }
        grid.fill(frame, style: .plain)
        let header = CellStyle(attributes: .reverse)
        grid.fill(CellRect(x: frame.x, y: frame.y, width: frame.width, height: 1), style: header)
        var title = " " + run.title + " "
        var detail = " run \(run.number)"
        if runs.count > 1 { detail += " (\(selected + 1) of \(runs.count))" }
        if let duration = run.duration { detail += " · " + Self.describe(duration) }
        if !run.scriptPreview.isEmpty { detail += " · " + TerminalSafeText.escaped(run.scriptPreview) }
        let hint = focused ? " ↑↓ move  Enter fold  ←→ runs  F6 back " : " F6 panel  ^↑↓ scroll  Esc close "
        let hintWidth = GlyphWidth.columns(of: hint)
        let room = frame.width - hintWidth - 2
        title = DisplayText.truncated(title, toColumns: max(0, room))
        var x = grid.write(title, x: frame.x + 1, y: frame.y, style: header.adding(.bold), clip: frame.maxX)
        if room - GlyphWidth.columns(of: title) > 8 {
            x = grid.write(DisplayText.truncated(detail, toColumns: room - GlyphWidth.columns(of: title)), x: x, y: frame.y,
                           style: header, clip: frame.maxX - hintWidth)
        }
        if frame.maxX - hintWidth > x {
            grid.write(hint, x: frame.maxX - hintWidth, y: frame.y, style: header, clip: frame.maxX)
        }
        let content = lines(width: frame.width)
        let rows = frame.height - 1
        let first = min(scroll, max(0, content.count - rows))
        for (offset, line) in content.dropFirst(first).prefix(rows).enumerated() {
            let y = frame.y + 1 + offset
            let isMarked = focused && first + offset == cursor
            if isMarked {
                grid.fill(CellRect(x: frame.x, y: y, width: frame.width, height: 1), style: CellStyle(background: .brightBlack))
            }
            var column = frame.x + line.indent
            for span in line.spans {
                let style = isMarked ? span.style.withBackground(.brightBlack) : span.style
                column = grid.write(span.text, x: column, y: y, style: style, clip: frame.maxX)
            }
        }
        if content.count - first > rows {
            let more = " ↓ \(content.count - first - rows) more "
            grid.write(more, x: frame.maxX - GlyphWidth.columns(of: more), y: frame.maxY - 1,
                       style: CellStyle(attributes: .reverse), clip: frame.maxX)
        }
    }

    /// A run's duration as people read it: `850 µs`, `12 ms`, `1.4 s`.
    static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds < 0.001 { return "\(Int((seconds * 1e6).rounded())) µs" }
        if seconds < 1 { return "\(Int((seconds * 1e3).rounded())) ms" }
        return String(format: "%.1f s", seconds)
    }
}
