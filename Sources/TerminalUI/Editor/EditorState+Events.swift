extension EditorState {
    /// Applies one event and returns what the shell must do about it.
    ///
    /// After every event the output panel is laid out for the current width, the viewport is
    /// scrolled so the cursor stays visible above the panel, and the colouring of the rows now
    /// on screen is learned, so that drawing the new state changes nothing in it.
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
        case .terminate(let reason):
            return [.quit(finish(reason))]
        }
        if outcome == nil {
            let width = layout.editor.width
            panel?.layOut(width: width)
            scrollToCursor()
            learnVisibleHighlighting()
        }
        return effects
    }

    // MARK: Keys

    private mutating func handleKey(_ event: KeyEvent) -> [EditorEffect] {
        switch overlay {
        case .none:
            message = nil
            return handleEditorKey(event)
        case .confirmQuit:
            return handleConfirmQuit(event)
        case .examples(var picker, let examples):
            switch picker.handle(event, pageSize: layout.visibleTextRows) {
            case .none:
                overlay = .examples(picker, examples)
            case .cancel:
                overlay = .none
            case .choose(let index):
                overlay = .none
                replaceDocument(with: examples[index].code)
                message = .info("Loaded example “\(examples[index].name)”. Ctrl-Z undoes it.")
            }
            return []
        case .scripts(var picker):
            switch picker.handle(event, pageSize: layout.visibleTextRows) {
            case .none:
                overlay = .scripts(picker)
                return []
            case .cancel:
                overlay = .none
                return []
            case .choose(let index):
                overlay = .none
                pendingRequest = .openScript
                message = .info("Opening…")
                return [.openScript(name: picker.items[index])]
            }
        case .form(var form):
            switch form.handle(event) {
            case .none:
                overlay = .form(form)
                return []
            case .cancel:
                overlay = .none
                return []
            case .submit(let name, let patterns, let runAt):
                form.isSaving = true
                overlay = .form(form)
                let script = NamedScript(name: name, code: buffer.text, matchPatterns: patterns, runAt: runAt)
                return [.saveNamedScript(script, revision: history.revision)]
            }
        }
    }

    private mutating func handleConfirmQuit(_ event: KeyEvent) -> [EditorEffect] {
        switch (event.key, event.modifiers) {
        case (.character("y"), []), (.character("Y"), _), (.character("q"), .control):
            overlay = .none
            return [.quit(finish(.quit))]
        case (.character("s"), []) where features.saveForSite:
            overlay = .none
            return saveForSite(quitAfterwards: true)
        case (.character("n"), []), (.character("N"), _), (.escape, _):
            overlay = .none
            return []
        default:
            return []
        }
    }

    private mutating func handleEditorKey(_ event: KeyEvent) -> [EditorEffect] {
        let modifiers = event.modifiers
        let extending = modifiers.contains(.shift)
        let byWord = modifiers.contains(.control) || modifiers.contains(.alt)
        switch event.key {
        case .character(let character) where modifiers.contains(.control):
            return handleControl(character)
        case .character("b") where modifiers == .alt:
            moveCursor(to: wordStart(before: cursor), extending: false)
        case .character("f") where modifiers == .alt:
            moveCursor(to: wordEnd(after: cursor), extending: false)
        case .character(let character) where !modifiers.contains(.alt):
            typeCharacter(character)
        case .enter:
            insertNewline()
        case .tab:
            indent()
        case .backTab:
            outdent()
        case .backspace:
            if byWord { deleteWordBackward() } else { deleteBackward() }
        case .delete:
            if byWord { deleteWordForward() } else { deleteForward() }
        case .escape:
            if panel != nil {
                panel = nil
            } else if !selection.isEmpty {
                selection = Selection(caret: cursor)
            }
        case .left:
            moveLeft(byWord: byWord, extending: extending)
        case .right:
            moveRight(byWord: byWord, extending: extending)
        case .up where modifiers.contains(.alt) && panel != nil:
            scrollPanel(by: -1)
        case .down where modifiers.contains(.alt) && panel != nil:
            scrollPanel(by: 1)
        case .up:
            moveVertically(by: -1, extending: extending)
        case .down:
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
        case .pageUp:
            movePage(by: -1, extending: extending)
        case .pageDown:
            movePage(by: 1, extending: extending)
        default:
            break
        }
        return []
    }

    private mutating func handleControl(_ character: Character) -> [EditorEffect] {
        switch character {
        case "q": return requestQuit()
        case "r": return runScript()
        case "s": return saveForSite(quitAfterwards: false)
        case "e": return loadExamples()
        case "o": return loadScriptNames()
        case "n": openForm()
        case "z": undo()
        case "y": redo()
        case "x": cut()
        case "c": copy()
        case "v": pasteClipboard()
        case "a": selectAll()
        default: break
        }
        return []
    }

    private mutating func scrollPanel(by delta: Int) {
        guard var current = panel, let frame = layout.panel else { return }
        current.scroll(by: delta, frame: frame)
        panel = current
    }

    // MARK: Paste

    private mutating func handlePaste(_ text: String) {
        switch overlay {
        case .none:
            message = nil
            insertPaste(text)
        case .form(var form):
            form.paste(text)
            overlay = .form(form)
        case .confirmQuit, .examples, .scripts:
            break
        }
    }

    // MARK: Commands

    private mutating func requestQuit() -> [EditorEffect] {
        guard hasUnsavedChanges else { return [.quit(finish(.quit))] }
        overlay = .confirmQuit
        return []
    }

    private mutating func runScript() -> [EditorEffect] {
        guard !isRunning else {
            message = .info("The script is still running.")
            return []
        }
        isRunning = true
        return [.runScript(buffer.text)]
    }

    private mutating func saveForSite(quitAfterwards: Bool) -> [EditorEffect] {
        ask(.saveForSite(script: buffer.text, revision: history.revision), pending: .saveForSite(quitAfterwards: quitAfterwards),
            if: features.saveForSite, unavailable: "Saving for this site is not available here.", progress: "Saving…")
    }

    private mutating func loadExamples() -> [EditorEffect] {
        ask(.loadExamples, pending: .examples,
            if: features.examples, unavailable: "No examples are available here.", progress: "Loading examples…")
    }

    private mutating func loadScriptNames() -> [EditorEffect] {
        ask(.loadScriptNames, pending: .scriptNames,
            if: features.openScript, unavailable: "Named scripts are not available here.", progress: "Loading scripts…")
    }

    /// Sends one request to the host, if it offers the feature and no other request is under way.
    private mutating func ask(_ effect: EditorEffect, pending request: PendingRequest, if available: Bool,
                              unavailable: String, progress: String) -> [EditorEffect] {
        guard available else {
            message = .error(unavailable)
            return []
        }
        guard pendingRequest == nil else {
            message = .info("Still busy with the last request.")
            return []
        }
        pendingRequest = request
        message = .info(progress)
        return [effect]
    }

    private mutating func openForm() {
        guard features.saveNamedScript else {
            message = .error("Named scripts are not available here.")
            return
        }
        overlay = .form(ScriptForm(settings: formSettings, current: currentScript))
    }

    // MARK: Host responses

    private mutating func handleHost(_ response: HostResponse) -> [EditorEffect] {
        switch response {
        case .runFinished(let result):
            isRunning = false
            panel = OutputPanel(result: result)
            if let exception = result.exception, let line = exception.line {
                moveCursor(toLine: line, utf16Column: exception.column)
            }
        case .runFailed(let reason):
            isRunning = false
            panel = OutputPanel(failure: reason)
        case .siteSaved(let revision, let text):
            let quitAfterwards = pendingRequest == .saveForSite(quitAfterwards: true)
            pendingRequest = nil
            savedRevision = revision
            message = .info(text)
            if quitAfterwards {
                return [.quit(finish(.quit))]
            }
        case .siteSaveFailed(let reason):
            pendingRequest = nil
            message = .error("Could not save: " + reason)
        case .examplesLoaded(let examples):
            pendingRequest = nil
            message = nil
            if examples.isEmpty {
                message = .info("There are no examples.")
            } else {
                overlay = .examples(ListPicker(title: "Examples", items: examples.map(\.name)), examples)
            }
        case .examplesFailed(let reason):
            pendingRequest = nil
            message = .error("Could not load examples: " + reason)
        case .scriptNamesLoaded(let names):
            pendingRequest = nil
            message = nil
            if names.isEmpty {
                message = .info("No saved scripts yet. Ctrl-N saves this one under a name.")
            } else {
                overlay = .scripts(ListPicker(title: "Open script", items: names))
            }
        case .scriptNamesFailed(let reason):
            pendingRequest = nil
            message = .error("Could not list scripts: " + reason)
        case .scriptOpened(let script):
            pendingRequest = nil
            replaceDocument(with: script.code)
            currentScript = script
            savedRevision = history.revision
            message = .info("Opened “\(script.name)”.")
        case .scriptOpenFailed(let reason):
            pendingRequest = nil
            message = .error("Could not open the script: " + reason)
        case .namedScriptSaved(let script, let revision):
            if case .form = overlay {
                overlay = .none
            }
            currentScript = script
            savedRevision = revision
            message = .info("Saved “\(script.name)”.")
        case .namedScriptSaveFailed(let reason):
            if case .form(var form) = overlay {
                form.isSaving = false
                form.saveError = "Could not save: " + reason
                overlay = .form(form)
            } else {
                message = .error("Could not save: " + reason)
            }
        }
        return []
    }
}
