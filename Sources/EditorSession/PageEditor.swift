import Foundation
import Injection
import SystemSupport
import TerminalUI
import UserScripts

/// `pagescript edit` as one call: opens a page, runs the terminal editor on it with the user's
/// library behind it, and closes the browser when the editor ends.
///
/// ```swift
/// let ended = try await PageEditor.edit(url: "https://example.com/", on: .local(.webkit),
///                                       library: library, scriptTimeout: 30)
/// if let file = ended.recoveryFile { print("your unsaved script is in \(file.path)") }
/// ```
public enum PageEditor {
    /// How editing ended, and where the unsaved text went when it ended without the user's say.
    public struct Ending: Sendable {
        /// The editor's outcome: the text, whether it was saved, and why it ended.
        public var outcome: EditorOutcome
        /// The recovery copy of unsaved text (see ``RecoveryCopy``), when one was needed and written.
        public var recoveryFile: URL?
        /// Why the recovery copy could not be written, when it could not.
        public var recoveryFailure: String?
    }

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
    /// (see ``PageEditorHost``). A watchdog stops the editor when the browser goes away. Unsaved
    /// text of an editor that ended without the user quitting is written to a ``RecoveryCopy``
    /// before the browser is closed.
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
    ) async throws(Failure) -> Ending {
        let ended: Result<Ending, TerminalError>
        do throws(PageRunner.Failure) {
            ended = try await PageRunner.withPage(on: choice, url: url, scriptTimeout: scriptTimeout) { page, context throws(PageRunner.Failure) in
                onPageOpen()
                let busy = BusyFlag()
                let loaded = LoadedScripts()
                let initial = PageEditorHost.initialScript(library: library, pageURL: context.url, loaded: loaded)
                let notices = EditorNoticeRelay()
                let turn = PageTurn()
                let userScripts = PageEditorHost.UserScriptSession(
                    host: GMHost(libraryDirectory: library.directory), turn: turn, lateWork: LateWorkServer(page: page, turn: turn))
                let app = EditorApp(
                    terminal: terminal,
                    page: PageInfo(title: context.title, url: context.url),
                    initialScript: initial.code,
                    document: initial.document,
                    host: PageEditorHost.make(page: page, pageURL: context.url, library: library, loaded: loaded, busy: busy,
                                              session: userScripts, notify: notices.send),
                    configuration: configuration)
                notices.attach(app)
                let watchdog = BrowserWatchdog(processes: processes, session: page.session, isBusy: { busy.isBusy }) { reason in
                    app.stop(reason: reason)
                }
                defer { watchdog.cancel() }
                let ended: Result<Ending, TerminalError>
                do throws(TerminalError) {
                    // The copy is written before the browser is stopped: a terminal that went away
                    // may be followed by a SIGKILL, and the text matters more than a tidy exit.
                    ended = .success(keep(try await app.run(), in: library))
                } catch {
                    ended = .failure(error)
                }
                userScripts.lateWork.stop()
                await userScripts.host.shutdown()
                return ended
            }
        } catch {
            throw .page(error)
        }
        switch ended {
        case let .success(ending): return ending
        case let .failure(error): throw .terminal(error)
        }
    }

    /// The ending of `outcome`, with a recovery copy of its text when one is needed.
    static func keep(_ outcome: EditorOutcome, in library: ScriptLibrary) -> Ending {
        var ending = Ending(outcome: outcome)
        guard RecoveryCopy.isNeeded(after: outcome) else { return ending }
        do {
            ending.recoveryFile = try RecoveryCopy.write(outcome.script, name: outcome.document?.name ?? "script",
                                                         into: library.directory)
        } catch {
            ending.recoveryFailure = "\(error)"
        }
        return ending
    }
}
