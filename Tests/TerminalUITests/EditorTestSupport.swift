@testable import TerminalUI

/// Helpers that drive the editor state machine the way the terminal would.
extension EditorState {
    static func make(_ text: String = "", columns: Int = 80, rows: Int = 24,
                     configuration: EditorConfiguration = EditorConfiguration(), features: EditorFeatures = .all,
                     formSettings: ScriptFormSettings = ScriptFormSettings(),
                     document: ScriptDocument? = EditorState.siteDocument) -> EditorState {
        EditorState(page: PageInfo(title: "Example", url: "https://example.com/"), script: text,
                    size: TerminalSize(columns: columns, rows: rows), configuration: configuration,
                    features: features, formSettings: formSettings, document: document)
    }

    /// The site script the test editors start with, saved before as `site0001`.
    static let siteDocument = ScriptDocument.siteScript(for: "example.com", id: "site0001", matchPatterns: ["*://example.com/*"])

    /// Runs the script with Ctrl-R and answers with `result`; returns the run's ID.
    @discardableResult
    mutating func run(answering result: ScriptRunResult) -> Int? {
        guard case .runScript(let id, _)? = control("r").first else { return nil }
        _ = handle(.host(.runFinished(id: id, result, duration: .milliseconds(12))))
        return id
    }

    /// Types text one key at a time (newlines as Enter).
    mutating func type(_ text: String) {
        for character in text {
            if character == "\n" {
                _ = handle(.key(KeyEvent(.enter)))
            } else {
                _ = handle(.key(KeyEvent(.character(character))))
            }
        }
    }

    @discardableResult
    mutating func press(_ key: Key, _ modifiers: KeyModifiers = []) -> [EditorEffect] {
        handle(.key(KeyEvent(key, modifiers)))
    }

    @discardableResult
    mutating func control(_ letter: Character) -> [EditorEffect] {
        handle(.key(KeyEvent.control(letter)))
    }

    @discardableResult
    mutating func press(_ key: Key, times: Int, _ modifiers: KeyModifiers = []) -> [EditorEffect] {
        var effects: [EditorEffect] = []
        for _ in 0..<times { effects += press(key, modifiers) }
        return effects
    }

    /// The screen of a new editor on `document` after typing `text`.
    func screenRows(document: ScriptDocument?, typing text: String) -> [String] {
        var state = EditorState.make(document: document)
        state.type(text)
        return state.screenRows()
    }

    /// The screen as plain text rows.
    func screenRows() -> [String] {
        let frame = EditorScreen.render(self)
        return (0..<frame.grid.height).map { y in
            var row = ""
            for x in 0..<frame.grid.width where !frame.grid[x, y].isContinuation {
                row.append(frame.grid[x, y].character)
            }
            return row
        }
    }
}

extension TextPosition {
    static func at(_ row: Int, _ column: Int) -> TextPosition {
        TextPosition(row: row, column: column)
    }
}
