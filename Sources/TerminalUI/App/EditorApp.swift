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
/// a ``ScriptRunResult``, `save` writes the script):
///
/// ```swift
/// let app = EditorApp(
///     page: PageInfo(title: context.title, url: context.url),
///     initialScript: savedScriptForSite ?? "",
///     host: EditorHost(runner: ClosureScriptRunner { script in try await runOnPage(script) },
///                      saveForSite: { script in try save(script); return "Saved for \(site)" }))
/// onBrowserDeath = { reason in app.stop(reason: reason) }
/// let outcome = try await app.run()
/// if case .signal(let number) = outcome.reason { exit(128 + number) }
/// ```
public final class EditorApp: Sendable {
    private let terminal: TerminalDevice
    private let page: PageInfo
    private let initialScript: String
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
    ///   - host: Runs scripts and provides the optional features.
    ///   - configuration: Editor preferences.
    public init(terminal: TerminalDevice = .standard, page: PageInfo, initialScript: String = "", host: EditorHost,
                configuration: EditorConfiguration = EditorConfiguration()) {
        self.terminal = terminal
        self.page = page
        self.initialScript = initialScript
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

    /// Runs the editor until the user quits (or a signal, ``stop(reason:)`` or the end of
    /// input ends it) and returns the final script and how the session ended. Call it once.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot be set up or written to. The
    ///   terminal is restored before the error propagates.
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
                                configuration: configuration, features: host.features, formSettings: host.form)
        var tasks: [Task<Void, Never>] = []
        defer {
            for task in tasks { task.cancel() }
        }
        do {
            let outcome = try await loop(state: &state, writer: writer, tasks: &tasks)
            await reader.stop()
            return outcome
        } catch {
            await reader.stop()
            throw error
        }
    }

    private func loop(state: inout EditorState, writer: TerminalWriter, tasks: inout [Task<Void, Never>]) async throws(TerminalError) -> EditorOutcome {
        var renderer = FrameRenderer()
        try draw(state, renderer: &renderer, writer: writer)
        for await event in events {
            for editorEvent in translate(event, renderer: &renderer) {
                for effect in state.handle(editorEvent) {
                    if case .quit(let outcome) = effect {
                        return outcome
                    }
                    tasks.append(perform(effect))
                }
            }
            try draw(state, renderer: &renderer, writer: writer)
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
        case .reader(.signal(let number)):
            return [.terminate(.signal(number))]
        case .reader(.closed):
            return [.terminate(.inputClosed)]
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
            case .runScript(let script):
                await ask({ try await host.runner.run(script: script) }, answer: { .runFinished($0) }, failure: { .runFailed($0) })
            case .saveForSite(let script, let revision):
                await ask(host.saveForSite.map { save in { try await save(script) } },
                          answer: { .siteSaved(revision: revision, message: $0) }, failure: { .siteSaveFailed($0) })
            case .loadExamples:
                await ask(host.examples, answer: { .examplesLoaded($0) }, failure: { .examplesFailed($0) })
            case .loadScriptNames:
                await ask(host.scriptNames, answer: { .scriptNamesLoaded($0) }, failure: { .scriptNamesFailed($0) })
            case .openScript(let name):
                await ask(host.openScript.map { open in { try await open(name) } },
                          answer: { .scriptOpened($0) }, failure: { .scriptOpenFailed($0) })
            case .saveNamedScript(let script, let revision):
                await ask(host.saveNamedScript.map { save in { try await save(script) } },
                          answer: { .namedScriptSaved(script, revision: revision) }, failure: { .namedScriptSaveFailed($0) })
            case .quit:
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
