extension EditorState {
    /// Applies the host's answer to a request, or a notice it sent by itself.
    mutating func handleHost(_ response: HostResponse) -> [EditorEffect] {
        switch response {
        case .runFinished(let id, let result, let duration):
            guard let run = running, run.id == id else { return [] }
            running = nil
            panel.append(RunRecord(number: id, script: run.script, outcome: .result(result), duration: duration))
            isPanelOpen = true
            if let exception = result.exception, let line = exception.line, run.script == buffer.text {
                moveCursor(toLine: line, utf16Column: exception.column)
            }
        case .runFailed(let id, let reason):
            guard let run = running, run.id == id else { return [] }
            running = nil
            panel.append(RunRecord(number: id, script: run.script, outcome: .failure(reason)))
            isPanelOpen = true
        case .saved(let receipt, let revision):
            pendingRequest = nil
            document = receipt.document
            savedRevision = revision
            message = .info(receipt.message)
            return continueAfterSave()
        case .saveConflict(let conflict, let revision):
            pendingRequest = nil
            afterSave = nil
            message = nil
            overlay = .conflict(ConflictDialog(conflict: conflict, mine: buffer.text, revision: revision))
        case .examplesLoaded(let examples):
            pendingRequest = nil
            message = nil
            if examples.isEmpty {
                message = .info("There are no examples.")
            } else {
                let items = examples.map { ListPicker.Item(title: $0.name, detail: $0.summary ?? "") }
                overlay = .examples(ListPicker(title: "Examples", items: items), examples)
            }
        case .scriptsListed(let summaries):
            pendingRequest = nil
            message = nil
            if summaries.isEmpty {
                message = .info("No saved scripts yet. Ctrl-N saves this one under a name.")
            } else {
                let items = summaries.map { ListPicker.Item(title: $0.name, detail: $0.detail) }
                overlay = .scripts(ListPicker(title: "Open script", items: items), summaries)
            }
        case .scriptOpened(let opened):
            pendingRequest = nil
            load(opened)
            message = .info("Opened \(opened.document.title). Ctrl-S saves into it.")
        case .scriptReloaded(let opened):
            pendingRequest = nil
            document = opened.document
            replaceDocument(with: opened.code)
            savedRevision = history.revision
            message = .info("Loaded their version of \(opened.document.title). Ctrl-Z brings yours back.")
        case .scriptCreated(let created, let revision):
            pendingRequest = nil
            if case .form = overlay {
                overlay = .none
            }
            document = created
            savedRevision = revision
            message = .info("Saved as \(created.title)\(created.id.map { " (\($0))" } ?? ""). Ctrl-S now saves into it.")
        case .pageReloaded(let info):
            pendingRequest = nil
            page = info
            message = .info("Reloaded the page.")
        case .pageRecovered(let info, let text):
            pendingRequest = nil
            page = info
            message = .info(text)
            panel.updateCancelled(with: text)
        case .failed(let request, let reason):
            pendingRequest = nil
            fail(request, reason)
        case .notice(let notice):
            return receive(notice)
        }
        return []
    }

    private mutating func fail(_ request: HostRequest, _ reason: String) {
        switch request {
        case .createScript:
            if case .form(var form) = overlay {
                form.isSaving = false
                form.saveError = "\(request.failureLead): \(reason)"
                overlay = .form(form)
                return
            }
        case .save:
            afterSave = nil
        case .recoverPage:
            panel.updateCancelled(with: "\(request.failureLead): \(reason)")
        default:
            break
        }
        message = .error("\(request.failureLead): \(reason)")
    }

    private mutating func continueAfterSave() -> [EditorEffect] {
        let next = afterSave
        afterSave = nil
        switch next {
        case .quit:
            return hasUnsavedChanges ? [] : [.quit(finish(.quit))]
        case .open(let summary):
            return open(summary)
        case nil:
            return []
        }
    }

    private mutating func receive(_ notice: EditorNotice) -> [EditorEffect] {
        switch notice {
        case .page(let info, let text):
            page = info
            if let text { message = .info(text) }
            return []
        case .message(let text, let isError):
            message = isError ? .error(text) : .info(text)
            return []
        case .clipboard(let text):
            message = .info("The script put text on the clipboard.")
            return [.copyToTerminalClipboard(text)]
        case .laterConsole(let lines):
            guard panel.appendLater(lines) else { return [] }
            message = .info("The script logged \(lines.count) more line\(lines.count == 1 ? "" : "s") after its run.")
            return []
        case .ask(let question):
            waitingQuestions.append(question)
            return askWaitingQuestion()
        case .withdraw(let question, let text):
            waitingQuestions.removeAll { $0 == question }
            if case .question(.host(let shown)) = overlay, shown == question {
                overlay = .none
                message = .info(text)
                return askWaitingQuestion()
            }
            return []
        }
    }

    // MARK: Conflicts

    /// The keys of the conflict dialog: load theirs, keep mine as a new script, show both.
    mutating func handleConflict(_ dialog: inout ConflictDialog, _ event: KeyEvent) -> [EditorEffect] {
        switch dialog.handle(event, pageSize: layout.editor.height - 4) {
        case .none:
            overlay = .conflict(dialog)
            return []
        case .cancel:
            overlay = .none
            message = .info("Nothing was saved. Your text is still here, unsaved.")
            return []
        case .loadTheirs:
            overlay = .none
            guard let document = self.document else { return [] }
            return request(.reloadScript, .reloadScript(document), available: features.reloadScript,
                           unavailable: "Reading the script again is not available here.", progress: "Loading their version…")
        case .keepMine:
            overlay = .none
            let base = document?.name ?? "Script"
            openForm(name: "\(base) (mine)", keepingDocumentRules: true)
            return []
        }
    }
}
