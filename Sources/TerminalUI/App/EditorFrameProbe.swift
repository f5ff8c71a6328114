/// The editor without a terminal: events go into the same state machine ``EditorApp`` runs, and
/// each call returns the bytes that one frame would write. For benchmarks and tests that measure
/// keystroke-to-frame cost and bytes per keystroke.
///
/// ```swift
/// var probe = EditorFrameProbe(script: tenThousandLines, columns: 120, rows: 40)
/// _ = probe.press(.end)
/// let bytes = probe.type("x")   // the frame after one keystroke: only the changed cells
/// ```
public struct EditorFrameProbe {
    private var state: EditorState
    private var renderer = FrameRenderer()

    /// An editor on `script` in a `columns` x `rows` terminal, with its first frame drawn.
    public init(script: String, columns: Int, rows: Int) {
        state = EditorState(page: PageInfo(title: "Probe", url: "about:blank"), script: script,
                            size: TerminalSize(columns: columns, rows: rows))
        _ = frame()
    }

    /// The keys the probe can press besides typed characters.
    public enum Key: Sendable {
        case enter, backspace, up, down, left, right, home, end, pageUp, pageDown
    }

    /// Types one character and returns the frame's bytes.
    public mutating func type(_ character: Character) -> [UInt8] {
        _ = state.handle(.key(KeyEvent(.character(character))))
        return frame()
    }

    /// Presses `key` and returns the frame's bytes.
    public mutating func press(_ key: Key) -> [UInt8] {
        let mapped: TerminalUI.Key = switch key {
        case .enter: .enter
        case .backspace: .backspace
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        case .home: .home
        case .end: .end
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        }
        _ = state.handle(.key(KeyEvent(mapped)))
        return frame()
    }

    /// Pastes `text` (bracketed paste, one step) and returns the frame's bytes.
    public mutating func paste(_ text: String) -> [UInt8] {
        _ = state.handle(.paste(text))
        return frame()
    }

    /// Opens the find bar (Ctrl-F) and types `query` into it key by key, which selects the first
    /// match from the cursor; returns the last frame's bytes.
    public mutating func find(_ query: String) -> [UInt8] {
        _ = state.handle(.key(.control("f")))
        for character in query {
            _ = state.handle(.key(KeyEvent(.character(character))))
        }
        return frame()
    }

    /// Enter in the find bar: the next match, round the end, and the frame that shows it.
    public mutating func findNext() -> [UInt8] {
        _ = state.handle(.key(KeyEvent(.enter)))
        return frame()
    }

    /// The cursor's line, counted from 1.
    public var cursorLine: Int { state.cursor.row + 1 }

    /// The number of lines in the document.
    public var lineCount: Int { state.lines.count }

    private mutating func frame() -> [UInt8] {
        let drawn = EditorScreen.render(state)
        return renderer.render(drawn.grid, cursor: drawn.cursor)
    }
}
