extension EditorState {
    /// Applies one event and returns what the shell must do about it.
    ///
    /// After every event the output panel is laid out for the current width, the viewport is
    /// scrolled so the cursor stays visible above the panel and the bar, and the colouring of
    /// the rows now on screen is learned (within a budget; see ``learnVisibleHighlighting(budget:)``),
    /// so that drawing the new state changes nothing in it.
    mutating func handle(_ event: EditorEvent) -> [EditorEffect] {
        guard outcome == nil else { return [] }
        let effects: [EditorEffect]
        switch event {
        case .key(let key):
            effects = handleKey(key)
        case .paste(let text):
            handlePaste(text)
            effects = []
        case .resize(let newSize):
            size = newSize
            effects = []
        case .host(let response):
            effects = handleHost(response)
        case .idle:
            learnVisibleHighlighting()
            return []
        case .terminate(let reason):
            return [.quit(finish(reason))]
        }
        if outcome == nil {
            if isPanelOpen {
                panel.layOut(width: layout.editor.width)
            }
            scrollToCursor()
            learnVisibleHighlighting()
            searchHighlights = visibleMatches(rows: viewport.top..<(viewport.top + layout.editor.height))
        }
        return effects
    }

    // MARK: Keys

    private mutating func handleKey(_ event: KeyEvent) -> [EditorEffect] {
        switch overlay {
        case .none:
            break
        case .question(let question):
            return answer(question, with: event)
        case .examples(var picker, let examples):
            switch picker.handle(event, pageSize: layout.visibleTextRows) {
            case .none:
                overlay = .examples(picker, examples)
            case .cancel:
                overlay = .none
            case .choose(let index):
                overlay = .none
                replaceDocument(with: examples[index].code)
                message = .info("Loaded the example “\(examples[index].name)”. Ctrl-Z brings your text back.")
            }
            return []
        case .scripts(var picker, let summaries):
            switch picker.handle(event, pageSize: layout.visibleTextRows) {
            case .none:
                overlay = .scripts(picker, summaries)
                return []
            case .cancel:
                overlay = .none
                return []
            case .choose(let index):
                overlay = .none
                return open(summaries[index])
            }
        case .form(var form):
            switch form.handle(event) {
            case .none:
                overlay = .form(form)
                return []
            case .cancel:
                overlay = .none
                return []
            case .submit(let script):
                form.isSaving = true
                overlay = .form(form)
                var named = script
                named.code = buffer.text
                pendingRequest = .createScript
                return [.createScript(named, revision: history.revision)]
            }
        case .help(var help):
            if help.handle(event, pageSize: layout.editor.height - 2) {
                overlay = .help(help)
            } else {
                overlay = .none
            }
            return []
        case .conflict(var dialog):
            return handleConflict(&dialog, event)
        }
        message = nil
        if focus == .panel {
            return handlePanelKey(event)
        }
        if prompt != nil, let effects = handlePromptKey(event) {
            return effects
        }
        return handleEditorKey(event)
    }

    private mutating func handleEditorKey(_ event: KeyEvent) -> [EditorEffect] {
        let command = KeyBindings.command(for: event)
        let previous = lastCommand
        lastCommand = command
        if let command {
            return perform(command, previous: previous)
        }
        let modifiers = event.modifiers
        let extending = modifiers.contains(.shift)
        let byWord = modifiers.contains(.control) || modifiers.contains(.alt)
        switch event.key {
        case .character("b") where modifiers == .alt:
            moveCursor(to: wordStart(before: cursor), extending: false)
        case .character("f") where modifiers == .alt:
            moveCursor(to: wordEnd(after: cursor), extending: false)
        case .character(let character) where modifiers.isDisjoint(with: [.control, .alt]):
            typeCharacter(character)
        case .enter where modifiers.isDisjoint(with: [.control, .alt]):
            insertNewline()
        case .backspace where modifiers.isEmpty:
            deleteBackward()
        case .delete where modifiers.isEmpty:
            deleteForward()
        case .escape:
            escape()
        case .left:
            moveLeft(byWord: byWord, extending: extending)
        case .right:
            moveRight(byWord: byWord, extending: extending)
        case .up where !modifiers.contains(.control) && !modifiers.contains(.alt):
            moveVertically(by: -1, extending: extending)
        case .down where !modifiers.contains(.control) && !modifiers.contains(.alt):
            moveVertically(by: 1, extending: extending)
        case .home:
            if modifiers.contains(.control) {
                moveCursor(to: .zero, extending: extending)
            } else {
                moveToLineStart(extending: extending)
            }
        case .end:
            if modifiers.contains(.control) {
                moveCursor(to: buffer.endPosition, extending: extending)
            } else {
                moveCursor(to: TextPosition(row: cursor.row, column: buffer.lines[cursor.row].count), extending: extending)
            }
        case .pageUp where !modifiers.contains(.control):
            movePage(by: -1, extending: extending)
        case .pageDown where !modifiers.contains(.control):
            movePage(by: 1, extending: extending)
        default:
            message = .info("\(event.displayName) does nothing here. F1 lists the keys.")
        }
        return []
    }

    /// Esc closes what is open, one thing at a time: the bar, the panel, the selection.
    private mutating func escape() {
        if prompt != nil {
            prompt = nil
        } else if isPanelOpen {
            isPanelOpen = false
        } else if !selection.isEmpty {
            selection = Selection(caret: cursor)
        }
    }

    private mutating func handlePanelKey(_ event: KeyEvent) -> [EditorEffect] {
        guard isPanelOpen, let frame = layout.panel else {
            focus = .editor
            return handleEditorKey(event)
        }
        switch (event.key, event.modifiers) {
        case (.escape, _), (.function(6), _):
            focus = .editor
            return []
        default:
            break
        }
        if panel.handle(event, frame: frame) {
            return []
        }
        if let command = KeyBindings.command(for: event) {
            lastCommand = command
            return perform(command, previous: nil)
        }
        message = .info("The result panel has the keys: ↑↓ move, Enter folds, ←→ other runs; F6 or Esc goes back to the script.")
        return []
    }

    // MARK: Paste

    private mutating func handlePaste(_ text: String) {
        switch overlay {
        case .none:
            message = nil
            if focus == .panel {
                message = .info("Pasting goes into the script: F6 or Esc goes back to it first.")
            } else if var current = prompt {
                current.paste(text)
                prompt = current
                updateSearch(movingFrom: selection.range.start)
            } else {
                insertPaste(text)
            }
        case .form(var form):
            form.paste(text)
            overlay = .form(form)
        case .question, .examples, .scripts, .help, .conflict:
            break
        }
    }

    // MARK: Questions

    private mutating func answer(_ question: Question, with event: KeyEvent) -> [EditorEffect] {
        let key: Character? = if case .character(let character) = event.key, event.modifiers.isDisjoint(with: [.control, .alt]) {
            Character(character.lowercased())
        } else {
            nil
        }
        let dismissed = event.key == .escape || key == "n"
        switch question {
        case .quit:
            if key == "y" || event == .control("q") {
                overlay = .none
                return [.quit(finish(.quit))]
            }
            if key == "s", features.save {
                overlay = .none
                return save(then: .quit)
            }
        case .cancelRun:
            if key == "y" {
                overlay = .none
                return recoverPage(cancellingRun: true)
            }
        case .discardForOpening(let summary):
            if key == "y" {
                overlay = .none
                pendingRequest = .openScript
                message = .info("Opening…")
                return [.openScript(id: summary.id)]
            }
            if key == "s", features.save {
                overlay = .none
                return save(then: .open(summary))
            }
        case .restoreRecovered(let recovered):
            if key == "y" {
                overlay = .none
                replaceDocument(with: recovered.text)
                message = .info("Restored the text kept in \(recovered.file), which stays there. Ctrl-Z undoes it.")
                return askWaitingQuestion()
            }
            if dismissed {
                message = .info("The text stays in \(recovered.file).")
            }
        case .host(let asked):
            // Its own keys answer it (its "n" too); Esc gives the program's default.
            if let key, asked.choices.contains(where: { $0.key == key }) {
                overlay = .none
                return [.answer(asked, key: key)] + askWaitingQuestion()
            }
            if event.key == .escape {
                overlay = .none
                return [.answer(asked, key: nil)] + askWaitingQuestion()
            }
            return []
        }
        if dismissed {
            overlay = .none
            return askWaitingQuestion()
        }
        return []
    }

    /// Shows the program's next waiting question, when nothing else is on screen.
    mutating func askWaitingQuestion() -> [EditorEffect] {
        guard case .none = overlay, !waitingQuestions.isEmpty else { return [] }
        overlay = .question(.host(waitingQuestions.removeFirst()))
        return []
    }
}
