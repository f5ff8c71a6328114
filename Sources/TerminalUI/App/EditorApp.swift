import Foundation
import SystemSupport

/// The full-screen script editor: the entry point of `pagescript edit`.
///
/// ``run()`` takes over the terminal (raw mode, alternate screen, bracketed paste), runs the
/// event loop until the user quits, and gives the terminal back exactly as it was — also when
/// it throws, when a termination signal arrives, and when ``stop(reason:)`` is called (for
/// example because the browser died). The loop is a thin shell around a pure state machine:
/// it turns bytes, resizes and host answers into events, performs the effects the state
/// machine asks for by calling the ``EditorHost``, and draws each new state with one write.
///
/// `EditorSession`'s `PageEditor` runs it on a live page, much like this (`runOnPage` returns
/// a ``ScriptRunResult``, `save` writes the script or throws ``ScriptConflict``):
///
/// ```swift
/// let app = EditorApp(
///     page: PageInfo(title: context.title, url: context.url),
///     initialScript: savedScriptForSite ?? "",
///     document: .siteScript(for: "example.com"),
///     host: EditorHost(runner: ClosureScriptRunner { script in try await runOnPage(script) },
///                      save: { document, code in try save(code, into: document) }))
/// onBrowserDeath = { reason in app.stop(reason: reason) }
/// let outcome = try await app.run()
/// if case .signal(let number) = outcome.reason { exit(128 + number) }
/// ```
public final class EditorApp: Sendable {
    private let terminal: TerminalDevice
    private let page: PageInfo
    private let initialScript: String
    private let document: ScriptDocument?
    private let recovered: RecoveredText?
    private let host: EditorHost
    private let configuration: EditorConfiguration
    private let events: AsyncStream<AppEvent>
    private let continuation: AsyncStream<AppEvent>.Continuation

    enum AppEvent: Sendable {
        case reader(TerminalInputReader.Output)
        case host(HostResponse)
        case terminate(EditorOutcome.Reason)
    }

    /// The sequence that undoes the editor's screen setup; static so that a signal handler
    /// can write it (see ``RawMode/restoreAfterSignal()``).
    static let exitSequence: StaticString = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

    /// Creates an editor; nothing happens to the terminal until ``run()``.
    ///
    /// - Parameters:
    ///   - terminal: The terminal to run on; standard input and output by default.
    ///   - page: The page's title and URL for the title bar.
    ///   - initialScript: The text to start with, such as the script saved for this site. It
    ///     counts as saved: quitting without changes does not ask.
    ///   - document: Which script `initialScript` is, which Ctrl-S saves into and the title bar
    ///     names; `nil` when the host keeps no scripts.
    ///   - recovered: Text an earlier session left unsaved, which the editor offers to restore
    ///     in place of `initialScript` before anything else (see ``RecoveredText``).
    ///   - host: Runs scripts and provides the optional features.
    ///   - configuration: Editor preferences.
    public init(terminal: TerminalDevice = .standard, page: PageInfo, initialScript: String = "",
                document: ScriptDocument? = nil, recovered: RecoveredText? = nil, host: EditorHost,
                configuration: EditorConfiguration = EditorConfiguration()) {
        self.terminal = terminal
        self.page = page
        self.initialScript = initialScript
        self.document = document
        self.recovered = recovered
        self.host = host
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
    }

    /// Ends ``run()`` from any thread or task: the editor restores the terminal and returns
    /// an outcome whose reason is ``EditorOutcome/Reason/stopped(_:)``. Use it when the
    /// browser session dies. Safe to call more than once and before `run()` starts.
    public func stop(reason: String) {
        continuation.yield(.terminate(.stopped(reason)))
    }

    /// Tells the editor something it did not ask for: the page changed, a message for the
    /// status line, text for the terminal's clipboard. Safe from any thread or task.
    public func notify(_ notice: EditorNotice) {
        continuation.yield(.host(.notice(notice)))
    }

    /// Runs the editor until the user quits (or a signal, ``stop(reason:)`` or the end of
    /// input ends it) and returns the final script and how the session ended. Call it once.
    ///
    /// A terminal that goes away while the editor runs (a hang-up, the end of its input, a
    /// read or write that fails) ends it with ``EditorOutcome/Reason/terminalClosed``, so the
    /// caller can keep a recovery copy of the text and stop everything it started.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot be set up. The terminal is restored
    ///   before the error propagates.
    public func run() async throws(TerminalError) -> EditorOutcome {
        let rawMode = try RawMode.enable(input: terminal.input, output: terminal.output, exitSequence: Self.exitSequence)
        defer { rawMode.restore() }
        let writer = TerminalWriter(fileDescriptor: terminal.output)
        try writer.writeAll(ANSI.enterEditor)

        let pipe = try SignalPipe()
        var signals = [SIGWINCH]
        if configuration.handlesTerminationSignals {
            signals += [SIGINT, SIGTERM, SIGHUP]
        }
        let forwarding = SignalForwarding(signals: signals, pipe: pipe)
        defer { forwarding.uninstall() }

        let reader = TerminalInputReader(input: terminal.input, pipe: pipe, escapeDelay: configuration.escapeDelay)
        let continuation = self.continuation
        reader.start { output in
            continuation.yield(.reader(output))
        }

        var state = EditorState(page: page, script: initialScript,
                                size: TerminalSize.current(of: terminal.output) ?? .fallback,
                                configuration: configuration, features: host.features, formSettings: host.form,
                                document: document, recovered: recovered)
        var tasks: [Task<Void, Never>] = []
        defer {
            for task in tasks { task.cancel() }
        }
        let outcome = await loop(state: &state, writer: writer, tasks: &tasks)
        await reader.stop()
        return outcome
    }

    private func loop(state: inout EditorState, writer: TerminalWriter, tasks: inout [Task<Void, Never>]) async -> EditorOutcome {
        var renderer = FrameRenderer(colors: TerminalColors.allowed(on: terminal.output))
        do throws(TerminalError) {
            try draw(state, renderer: &renderer, writer: writer)
            for await event in events {
                for editorEvent in translate(event, renderer: &renderer) {
                    for effect in state.handle(editorEvent) {
                        switch effect {
                        case .quit(let outcome):
                            return outcome
                        case .copyToTerminalClipboard(let text):
                            try writer.writeAll(ANSI.setClipboard(text))
                        case .answer(let question, let key):
                            question.respond(key)
                        default:
                            tasks.append(perform(effect))
                        }
                    }
                }
                try draw(state, renderer: &renderer, writer: writer)
            }
        } catch {
            // Nobody can see a terminal that cannot be written to any more.
            return state.finish(.terminalClosed)
        }
        return state.finish(.stopped("The event stream ended."))
    }

    private func translate(_ event: AppEvent, renderer: inout FrameRenderer) -> [EditorEvent] {
        switch event {
        case .reader(.input(let inputs)):
            return inputs.map { input in
                switch input {
                case .key(let key): return .key(key)
                case .paste(let text): return .paste(text)
                }
            }
        case .reader(.resize):
            renderer.invalidate()
            return [.resize(TerminalSize.current(of: terminal.output) ?? .fallback)]
        case .reader(.signal(let number)) where number == SIGHUP:
            return [.terminate(.terminalClosed)]
        case .reader(.signal(let number)):
            return [.terminate(.signal(number))]
        case .reader(.closed):
            return [.terminate(.terminalClosed)]
        case .host(let response):
            return [.host(response)]
        case .terminate(let reason):
            return [.terminate(reason)]
        }
    }

    private func draw(_ state: EditorState, renderer: inout FrameRenderer, writer: TerminalWriter) throws(TerminalError) {
        let frame = EditorScreen.render(state)
        let bytes = renderer.render(frame.grid, cursor: frame.cursor)
        if !bytes.isEmpty {
            try writer.writeAll(bytes)
        }
    }

    /// Starts the host call an effect asks for; its answer comes back as an event.
    private func perform(_ effect: EditorEffect) -> Task<Void, Never> {
        let host = self.host
        let continuation = self.continuation
        /// Calls the host's feature, if it offers it, and answers with what it gave or why not.
        func ask<Value>(_ call: (() async throws -> Value)?, answer: (Value) -> HostResponse,
                        failure: (String) -> HostResponse) async {
            let response: HostResponse
            if let call {
                do {
                    response = answer(try await call())
                } catch {
                    response = failure(Self.describe(error))
                }
            } else {
                response = failure("not available")
            }
            continuation.yield(.host(response))
        }
        return Task {
            switch effect {
            case .runScript(let id, let script):
                let clock = ContinuousClock()
                let started = clock.now
                await ask({ try await host.runner.run(script: script) },
                          answer: { .runFinished(id: id, $0, duration: clock.now - started) }, failure: { .runFailed(id: id, $0) })
            case .save(let document, let code, let revision):
                let response: HostResponse
                if let save = host.save {
                    do {
                        response = .saved(try await save(document, code), revision: revision)
                    } catch let conflict as ScriptConflict {
                        response = .saveConflict(conflict, revision: revision)
                    } catch {
                        response = .failed(.save, Self.describe(error))
                    }
                } else {
                    response = .failed(.save, "not available")
                }
                continuation.yield(.host(response))
            case .loadExamples:
                await ask(host.examples, answer: { .examplesLoaded($0) }, failure: { .failed(.examples, $0) })
            case .listScripts:
                await ask(host.listScripts, answer: { .scriptsListed($0) }, failure: { .failed(.listScripts, $0) })
            case .openScript(let id):
                await ask(host.openScript.map { open in { try await open(id) } },
                          answer: { .scriptOpened($0) }, failure: { .failed(.openScript, $0) })
            case .reloadScript(let document):
                await ask(host.reloadScript.map { reload in { try await reload(document) } },
                          answer: { .scriptReloaded($0) }, failure: { .failed(.reloadScript, $0) })
            case .createScript(let script, let revision):
                await ask(host.createScript.map { create in { try await create(script) } },
                          answer: { .scriptCreated($0, revision: revision) }, failure: { .failed(.createScript, $0) })
            case .reloadPage:
                await ask(host.reloadPage, answer: { .pageReloaded($0) }, failure: { .failed(.reloadPage, $0) })
            case .recoverPage:
                await ask(host.recoverPage, answer: { .pageRecovered($0.page, message: $0.message) },
                          failure: { .failed(.recoverPage, $0) })
            case .copyToTerminalClipboard, .answer, .quit:
                break
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }
}
