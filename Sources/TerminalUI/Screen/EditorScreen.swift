/// Composes a whole frame from the editor state: title bar, editor, output panel, any picker
/// or form, and the status line. Drawing reads the state and changes nothing in it.
enum EditorScreen {
    static func render(_ state: EditorState) -> (grid: CellGrid, cursor: CursorPlacement?) {
        var grid = CellGrid(width: state.size.columns, height: state.size.rows)
        let layout = state.layout
        if layout.isTooSmall {
            grid.write("Terminal too small", x: 0, y: 0, style: CellStyle(attributes: .bold))
            return (grid, nil)
        }
        TitleBar.draw(into: &grid, frame: layout.titleBar, page: state.page, scriptName: state.currentScript?.name,
                      isModified: state.hasUnsavedChanges)
        var cursor = EditorView.draw(into: &grid, layout: layout, state: state)
        if let panel = state.panel, let frame = layout.panel {
            panel.draw(into: &grid, frame: frame)
        }
        switch state.overlay {
        case .none:
            break
        case .confirmQuit:
            cursor = nil
        case .examples(let picker, _), .scripts(let picker):
            let height = min(picker.items.count + 3, layout.editor.height)
            picker.draw(into: &grid, frame: layout.dialog(width: 60, height: max(5, height)))
            cursor = nil
        case .form(let form):
            cursor = form.draw(into: &grid, frame: layout.dialog(width: 72, height: ScriptForm.height))
        }
        StatusBar.draw(into: &grid, frame: layout.statusBar, content: statusContent(for: state))
        return (grid, cursor)
    }

    /// What the status line says in the current state.
    static func statusContent(for state: EditorState) -> StatusBar.Content {
        let position = "Ln \(state.cursor.row + 1), Col \(state.cursor.column + 1) "
        switch state.overlay {
        case .confirmQuit:
            var hints = [StatusBar.Hint(key: "y", label: "Quit")]
            if state.features.saveForSite {
                hints.append(StatusBar.Hint(key: "s", label: "Save & quit"))
            }
            hints.append(StatusBar.Hint(key: "n", label: "Keep editing"))
            return .question("Unsaved changes. Quit anyway?", hints)
        case .examples, .scripts:
            return .hints([
                StatusBar.Hint(key: "↑↓", label: "Choose"),
                StatusBar.Hint(key: "Enter", label: "Open"),
                StatusBar.Hint(key: "Esc", label: "Cancel"),
            ], trailing: "Type to filter ")
        case .form:
            return .hints([
                StatusBar.Hint(key: "Tab", label: "Next field"),
                StatusBar.Hint(key: "←→", label: "Run at"),
                StatusBar.Hint(key: "Enter", label: "Save"),
                StatusBar.Hint(key: "Esc", label: "Cancel"),
            ], trailing: "")
        case .none:
            break
        }
        if let message = state.message {
            return .message(message, trailing: position)
        }
        var hints: [StatusBar.Hint] = []
        if state.panel != nil {
            hints.append(StatusBar.Hint(key: "Esc", label: "Close"))
        }
        // Most important first: a narrow terminal drops hints from the end.
        hints.append(StatusBar.Hint(key: "^R", label: state.isRunning ? "Running…" : "Run"))
        if state.features.saveForSite { hints.append(StatusBar.Hint(key: "^S", label: "Save")) }
        hints.append(StatusBar.Hint(key: "^Q", label: "Quit"))
        if state.features.examples { hints.append(StatusBar.Hint(key: "^E", label: "Examples")) }
        if state.features.openScript { hints.append(StatusBar.Hint(key: "^O", label: "Open")) }
        if state.features.saveNamedScript { hints.append(StatusBar.Hint(key: "^N", label: "Name")) }
        return .hints(hints, trailing: position)
    }
}
