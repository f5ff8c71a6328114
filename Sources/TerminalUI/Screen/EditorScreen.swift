/// Composes a whole frame from the editor state: title bar, editor, result panel, find bar, any
/// picker, form or dialog, and the status line. Drawing reads the state and changes nothing in
/// it.
enum EditorScreen {
    static func render(_ state: EditorState) -> (grid: CellGrid, cursor: CursorPlacement?) {
        var grid = CellGrid(width: state.size.columns, height: state.size.rows)
        let layout = state.layout
        if layout.isTooSmall {
            grid.write("Terminal too small", x: 0, y: 0, style: CellStyle(attributes: .bold))
            return (grid, nil)
        }
        TitleBar.draw(into: &grid, frame: layout.titleBar, page: state.page, document: state.document,
                      isModified: state.hasUnsavedChanges)
        var cursor = EditorView.draw(into: &grid, layout: layout, state: state)
        if state.isPanelOpen, let frame = layout.panel {
            state.panel.draw(into: &grid, frame: frame, focused: state.focus == .panel)
            if state.focus == .panel { cursor = nil }
        }
        if let prompt = state.prompt, let frame = layout.bar {
            cursor = prompt.draw(into: &grid, frame: frame)
        }
        switch state.overlay {
        case .none:
            break
        case .question:
            cursor = nil
        case .examples(let picker, _), .scripts(let picker, _):
            picker.draw(into: &grid, frame: layout.dialog(width: 90, height: min(picker.wantedHeight, layout.editor.height)))
            cursor = nil
        case .form(let form):
            let width = min(80, layout.editor.width - 2)
            cursor = form.draw(into: &grid, frame: layout.dialog(width: width, height: form.height(width: width)))
        case .help(let help):
            help.draw(into: &grid, frame: layout.editor)
            cursor = nil
        case .conflict(let dialog):
            dialog.draw(into: &grid, area: layout.editor)
            cursor = nil
        }
        StatusBar.draw(into: &grid, frame: layout.statusBar, content: statusContent(for: state))
        return (grid, cursor)
    }

    /// What the status line says in the current state.
    static func statusContent(for state: EditorState) -> StatusBar.Content {
        let position = StatusBar.Position(line: state.cursor.row + 1, column: state.cursor.column + 1)
        switch state.overlay {
        case .question(let question):
            return questionContent(question, state: state)
        case .examples, .scripts:
            return .hints([
                StatusBar.Hint(key: "↑↓", label: "Choose"),
                StatusBar.Hint(key: "Enter", label: "Open"),
                StatusBar.Hint(key: "Esc", label: "Cancel"),
            ], position: nil)
        case .form:
            return .hints([
                StatusBar.Hint(key: "Tab", label: "Next field"),
                StatusBar.Hint(key: "←→", label: "Run at"),
                StatusBar.Hint(key: "Enter", label: "Save"),
                StatusBar.Hint(key: "Esc", label: "Cancel"),
            ], position: nil)
        case .help:
            return .hints([StatusBar.Hint(key: "↑↓", label: "Scroll"), StatusBar.Hint(key: "Esc", label: "Close")], position: nil)
        case .conflict(let dialog):
            return .question(dialog.question, dialog.choices)
        case .none:
            break
        }
        if let message = state.message {
            return .message(message, position: position)
        }
        if state.focus == .panel {
            return .hints([
                StatusBar.Hint(key: "↑↓", label: "Move"),
                StatusBar.Hint(key: "Enter", label: "Fold"),
                StatusBar.Hint(key: "←→", label: "Runs"),
                StatusBar.Hint(key: "F6", label: "Back"),
            ], position: position)
        }
        switch state.prompt {
        case .find(let bar):
            var hints = [
                StatusBar.Hint(key: "Enter", label: bar.focus == .replacement ? "Replace" : "Next"),
                StatusBar.Hint(key: "↑", label: "Previous"),
                StatusBar.Hint(key: "Alt-C", label: "Case"),
            ]
            if bar.replacement != nil {
                hints.append(StatusBar.Hint(key: "Alt-A", label: "Replace all"))
                hints.append(StatusBar.Hint(key: "Tab", label: "Field"))
            }
            hints.append(StatusBar.Hint(key: "Esc", label: "Close"))
            return .hints(hints, position: position)
        case .goToLine:
            return .hints([StatusBar.Hint(key: "Enter", label: "Go"), StatusBar.Hint(key: "Esc", label: "Cancel")], position: position)
        case nil:
            break
        }
        return .hints(editorHints(for: state), position: position)
    }

    /// The editor's hints, most important first: a narrow terminal drops them from the end.
    private static func editorHints(for state: EditorState) -> [StatusBar.Hint] {
        var hints: [StatusBar.Hint] = []
        if state.isPanelOpen {
            hints.append(StatusBar.Hint(key: "Esc", label: "Close"))
        }
        hints.append(KeyBindings.hint(.run, label: state.isRunning ? "Cancel…" : "Run"))
        if state.features.save { hints.append(KeyBindings.hint(.save)) }
        hints.append(KeyBindings.hint(.help))
        hints.append(KeyBindings.hint(.find))
        hints.append(KeyBindings.hint(.quit))
        if state.isPanelOpen { hints.append(KeyBindings.hint(.focusPanel)) }
        if state.features.openScript { hints.append(KeyBindings.hint(.open)) }
        if state.features.createScript { hints.append(KeyBindings.hint(.saveAsNew)) }
        if state.features.examples { hints.append(KeyBindings.hint(.examples)) }
        if state.features.reloadPage { hints.append(KeyBindings.hint(.reloadPage)) }
        hints.append(KeyBindings.hint(.goToLine))
        return hints
    }

    private static func questionContent(_ question: Question, state: EditorState) -> StatusBar.Content {
        switch question {
        case .quit:
            var hints = [StatusBar.Hint(key: "y", label: "Quit")]
            if state.features.save { hints.append(StatusBar.Hint(key: "s", label: "Save & quit")) }
            hints.append(StatusBar.Hint(key: "n", label: "Keep editing"))
            return .question("Unsaved changes. Quit anyway?", hints)
        case .cancelRun:
            return .question("The script is still running. Cancel it?", [
                StatusBar.Hint(key: "y", label: "Cancel it (the page is recovered)"),
                StatusBar.Hint(key: "n", label: "Let it run"),
            ])
        case .discardForOpening(let summary):
            var hints = [StatusBar.Hint(key: "y", label: "Open, dropping them")]
            if state.features.save { hints.append(StatusBar.Hint(key: "s", label: "Save, then open")) }
            hints.append(StatusBar.Hint(key: "n", label: "Keep editing"))
            return .question("Unsaved changes. Open “\(summary.name)” anyway?", hints)
        case .restoreRecovered(let recovered):
            return .question("Unsaved text from \(recovered.kept) was kept for this script. Restore it?", [
                StatusBar.Hint(key: "y", label: "Restore"),
                StatusBar.Hint(key: "n", label: "Leave it in the file"),
            ])
        case .host(let asked):
            return .question(asked.prompt, asked.choices.map { StatusBar.Hint(key: String($0.key), label: $0.label) })
        }
    }
}
