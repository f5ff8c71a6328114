import Injection
import SystemSupport
import TerminalUI
import UserScripts

/// `pagescript edit` as one call: opens a page, runs the terminal editor on it with the user's
/// library behind it, and closes the browser when the editor ends.
///
/// ```swift
/// let outcome = try await PageEditor.edit(url: "https://example.com/", on: .local(.webkit),
///                                         library: library, scriptTimeout: 30)
/// if outcome.hasUnsavedChanges { print("quit with unsaved changes") }
/// ```
public enum PageEditor {
    /// Why editing could not start or go on.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The page could not be opened: the engine, the address or the driver failed.
        case page(PageRunner.Failure)
        /// The terminal could not be set up or written to.
        case terminal(TerminalError)

        public var description: String {
            switch self {
            case let .page(failure): failure.description
            case let .terminal(error): "the terminal failed: \(error.description)"
            }
        }
    }

    /// Opens `url` and edits a script for it until the user quits, a signal arrives, the
    /// terminal closes or the browser dies (``EditorOutcome/Reason/stopped(_:)``).
    ///
    /// The editor starts with the script saved for the page's site; Ctrl-R runs the text on the
    /// page through Action.js, and the library provides saving, examples and named scripts
    /// (see ``PageEditorHost``). A watchdog stops the editor when the browser goes away.
    ///
    /// - Parameters:
    ///   - url: The page's address, already resolved (see `PageAddress`).
    ///   - choice: The engine or endpoint.
    ///   - library: The user's script library.
    ///   - scriptTimeout: How long each run may take, in seconds.
    ///   - terminal: Where the editor reads keys and draws.
    ///   - configuration: Editor preferences.
    ///   - processes: The local processes whose exit means the browser died; by default every
    ///     child the process registry holds, which in `pagescript edit` is exactly the engine's.
    ///   - onPageOpen: Called once the page is open, just before the editor takes the terminal.
    public static func edit(
        url: String,
        on choice: EngineChoice,
        library: ScriptLibrary,
        scriptTimeout: Double,
        terminal: TerminalDevice = .standard,
        configuration: EditorConfiguration = EditorConfiguration(),
        processes: @escaping @Sendable () -> [ChildProcess] = { ChildProcessRegistry.shared.children },
        onPageOpen: @escaping @Sendable () -> Void = {}
    ) async throws(Failure) -> EditorOutcome {
        let ended: Result<EditorOutcome, TerminalError>
        do throws(PageRunner.Failure) {
            ended = try await PageRunner.withPage(on: choice, url: url, scriptTimeout: scriptTimeout) { page, context throws(PageRunner.Failure) in
                onPageOpen()
                let busy = BusyFlag()
                let app = EditorApp(
                    terminal: terminal,
                    page: PageInfo(title: context.title, url: context.url),
                    initialScript: PageEditorHost.initialScript(library: library, pageURL: context.url),
                    host: PageEditorHost.make(page: page, pageURL: context.url, library: library, busy: busy),
                    configuration: configuration)
                let watchdog = BrowserWatchdog(processes: processes, session: page.session, isBusy: { busy.isBusy }) { reason in
                    app.stop(reason: reason)
                }
                defer { watchdog.cancel() }
                do throws(TerminalError) {
                    return .success(try await app.run())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .page(error)
        }
        switch ended {
        case let .success(outcome): return outcome
        case let .failure(error): throw .terminal(error)
        }
    }
}
