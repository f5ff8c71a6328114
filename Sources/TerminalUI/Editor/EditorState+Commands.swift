extension EditorState {
    /// Carries out a command of ``KeyBindings``; `previous` is the command of the key before,
    /// so pressing a selection key again grows the selection.
    mutating func perform(_ command: EditorCommand, previous: EditorCommand?) -> [EditorEffect] {
        switch command {
        case .run: return runScript()
        case .rerun: return rerunLastScript()
        case .reloadPage:
            return request(.reloadPage, .reloadPage, available: features.reloadPage,
                           unavailable: "Reloading the page is not available here.", progress: "Reloading the page…")
        case .save: return save(then: nil)
        case .saveAsNew: openForm(name: "", keepingDocumentRules: false)
        case .open:
            return request(.listScripts, .listScripts, available: features.openScript,
                           unavailable: "Opening scripts is not available here.", progress: "Loading the scripts…")
        case .examples:
            return request(.examples, .loadExamples, available: features.examples,
                           unavailable: "No examples are available here.", progress: "Loading the examples…")
        case .quit: return requestQuit()
        case .help: overlay = .help(HelpScreen())
        case .find: openFindBar(replacing: false)
        case .replace: openFindBar(replacing: true)
        case .findNext: findAgain(forward: true)
        case .findPrevious: findAgain(forward: false)
        case .goToLine: prompt = .goToLine(FormTextField(label: "Go to line", text: ""))
        case .undo: undo()
        case .redo: redo()
        case .cut: return cut()
        case .copy: return copy()
        case .paste: pasteClipboard()
        case .deleteLine: deleteLines()
        case .deleteWordBackward: deleteWordBackward()
        case .deleteWordForward: deleteWordForward()
        case .duplicate: duplicate()
        case .moveLinesUp: moveLines(by: -1)
        case .moveLinesDown: moveLines(by: 1)
        case .indent: indent()
        case .outdent: outdent()
        case .toggleComment: toggleComment()
        case .selectAll: selectAll()
        case .selectWord: selectWord(growing: previous == .selectWord)
        case .selectLine: selectLine(growing: previous == .selectLine)
        case .focusPanel: focusPanel()
        case .scrollPanelUp: scrollPanel(by: -1)
        case .scrollPanelDown: scrollPanel(by: 1)
        }
        return []
    }

    // MARK: Running

    private mutating func runScript() -> [EditorEffect] {
        guard running == nil else {
            if features.recoverPage {
                overlay = .question(.cancelRun)
            } else {
                message = .info("The script is still running.")
            }
            return []
        }
        return start(buffer.text)
    }

    private mutating func rerunLastScript() -> [EditorEffect] {
        guard let script = lastRunScript else {
            message = .info("Nothing has run yet: Ctrl-R runs the script.")
            return []
        }
        guard running == nil else { return runScript() }
        return start(script)
    }

    private mutating func start(_ script: String) -> [EditorEffect] {
        let id = nextRunID
        nextRunID += 1
        running = RunningScript(id: id, script: script)
        lastRunScript = script
        return [.runScript(id: id, script: script)]
    }

    /// Asks the host to get the page working again; with `cancellingRun`, the run under way is
    /// given up (its answer, if it still comes, is ignored).
    mutating func recoverPage(cancellingRun: Bool) -> [EditorEffect] {
        let effects = request(.recoverPage, .recoverPage, available: features.recoverPage,
                              unavailable: "A running script cannot be cancelled here.", progress: "Cancelling: recovering the page…")
        if cancellingRun, !effects.isEmpty, let cancelled = running {
            running = nil
            panel.append(RunRecord(number: cancelled.id, script: cancelled.script, outcome: .cancelled("Cancelled; recovering the page…")))
            isPanelOpen = true
        }
        return effects
    }

    // MARK: Saving and opening

    /// Ctrl-S: the text into the script on screen, then `next`.
    mutating func save(then next: AfterSave?) -> [EditorEffect] {
        guard features.save, let document else {
            message = .error("Saving is not available here.")
            return []
        }
        guard pendingRequest == nil else {
            message = .info("Still busy with the last request.")
            return []
        }
        pendingRequest = .save
        afterSave = next
        message = .info("Saving \(document.title)…")
        return [.save(document, code: buffer.text, revision: history.revision)]
    }

    /// Opens a script from the list, asking first when the one on screen has unsaved changes.
    mutating func open(_ summary: ScriptSummary) -> [EditorEffect] {
        if hasUnsavedChanges {
            overlay = .question(.discardForOpening(summary))
            return []
        }
        return request(.openScript, .openScript(id: summary.id), available: features.openScript,
                       unavailable: "Opening scripts is not available here.", progress: "Opening “\(summary.name)”…")
    }

    private mutating func requestQuit() -> [EditorEffect] {
        guard hasUnsavedChanges else { return [.quit(finish(.quit))] }
        overlay = .question(.quit)
        return []
    }

    /// The form for a new script, starting from the site's patterns, or (`keepingDocumentRules`)
    /// from where and when the script on screen runs.
    mutating func openForm(name: String, keepingDocumentRules: Bool) {
        guard features.createScript else {
            message = .error("Saving under a new name is not available here.")
            return
        }
        var current: NamedScript?
        if keepingDocumentRules, let document {
            current = NamedScript(name: name, code: "", matchPatterns: document.matchPatterns,
                                  excludePatterns: document.excludePatterns, runAt: document.runAt)
        }
        overlay = .form(ScriptForm(settings: formSettings, name: name, current: current))
    }

    /// Sends one request to the host, if it offers the feature and no other request is under way.
    mutating func request(_ request: HostRequest, _ effect: EditorEffect, available: Bool, unavailable: String,
                          progress: String) -> [EditorEffect] {
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

    // MARK: The panel

    private mutating func focusPanel() {
        if isPanelOpen {
            focus = focus == .panel ? .editor : .panel
        } else if panel.isEmpty {
            message = .info("No runs yet: Ctrl-R runs the script and opens the panel.")
        } else {
            isPanelOpen = true
            focus = .panel
        }
    }

    private mutating func scrollPanel(by delta: Int) {
        guard isPanelOpen, let frame = layout.panel else {
            message = .info("The result panel is closed: F6 opens it.")
            return
        }
        panel.scroll(by: delta, frame: frame)
    }
}
