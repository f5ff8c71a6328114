import Foundation
import PageRuntime
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
        /// The addresses the runs on a borrowed page asked to open with `GM_openInTab`, in order,
        /// for the page's owner to open with their own scripts; the editor of a page it opened
        /// opens them itself and leaves this empty.
        public var tabsToOpen: [String] = []
    }

    /// Why editing could not start or go on.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The page could not be opened: the engine, the address or the driver failed.
        case page(PageRunner.Failure)
        /// The terminal could not be set up or written to.
        case terminal(TerminalError)
        /// The file to edit could not be read.
        case file(LibraryError)

        public var description: String {
            switch self {
            case let .page(failure): failure.description
            case let .terminal(error): "the terminal failed: \(error.description)"
            case let .file(error): error.description
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
    ///   - file: A userscript file of the user's own, outside the library, to edit instead of the
    ///     site's script (shown whole, saved back to it; one that does not exist yet is made by
    ///     the first save); `nil` for the library's.
    ///   - scriptTimeout: How long each run may take, in seconds.
    ///   - bypassesContentSecurityPolicy: Whether to lift the page's Content-Security-Policy for
    ///     the whole page (off by default; `PageSession.bypassesContentSecurityPolicy`).
    ///   - downloads: Where scripts' `GM_download` saves files; `nil`: downloads are off.
    ///   - terminal: Where the editor reads keys and draws.
    ///   - configuration: Editor preferences.
    ///   - processes: The local processes whose exit means the browser died; by default every
    ///     child the process registry holds, which in `pagescript edit` is exactly the engine's.
    ///   - onPageOpen: Called once the page is open, just before the editor takes the terminal.
    public static func edit(
        url: String,
        on choice: EngineChoice,
        library: ScriptLibrary,
        file: String? = nil,
        scriptTimeout: Double,
        bypassesContentSecurityPolicy: Bool = false,
        downloads: URL? = nil,
        terminal: TerminalDevice = .standard,
        configuration: EditorConfiguration = EditorConfiguration(),
        processes: @escaping @Sendable () -> [ChildProcess] = { ChildProcessRegistry.shared.children },
        onPageOpen: @escaping @Sendable () -> Void = {}
    ) async throws(Failure) -> Ending {
        var edited: EditedFile?
        if let file {
            do throws(LibraryError) {
                edited = try EditedFile(path: file, pageURL: url)
            } catch {
                throw .file(error)
            }
        }
        let opened: OpenedPage
        do throws(PageRunner.Failure) {
            opened = try await PageRunner.open(on: choice, url: url, scriptTimeout: scriptTimeout, bypassesContentSecurityPolicy: bypassesContentSecurityPolicy)
        } catch {
            throw .page(error)
        }
        // A page a script left stuck is replaced by the same address in a new browser.
        let page = EditorPage(opened) { address throws(PageRunner.Failure) in
            try await PageRunner.open(on: choice, url: address, scriptTimeout: scriptTimeout,
                                      bypassesContentSecurityPolicy: bypassesContentSecurityPolicy)
        }
        onPageOpen()
        // A script's request to a host its @connect lines do not name is asked about, as in browse.
        let asker = EditorConnectAsker()
        // GM_notification on the desktop, its clicks delivered back, where the session bus has a
        // notification service; else reported. The status line says why once where there is a
        // bus (a desktop session); a terminal with no bus at all expects no desktop notification.
        let display = await BlockingWork.run { Result { () throws(DesktopNotifications.Unavailable) in try GMNotificationDisplay.connect() } }
        let host = GMHost(libraryDirectory: library.directory, asker: asker.ask, downloads: downloads, notifications: try? display.get())
        var notice: String?
        if case let .failure(unavailable) = display, !(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty {
            notice = "notifications are reported, not shown: \(unavailable.description)"
        }
        let ended = await edit(page, context: opened.context, library: library, host: host, asker: asker, file: edited, terminal: terminal,
                               configuration: configuration, processes: processes, notice: notice)
        await host.shutdown()
        await page.close()
        switch ended {
        case let .success(ending): return ending
        case let .failure(error): throw .terminal(error)
        }
    }

    /// Edits a script for the page `page` shows, on a page someone else opened and keeps: the
    /// window of `pagescript browse`, in the browser the user looks at.
    ///
    /// It is ``edit(url:on:library:scriptTimeout:bypassesContentSecurityPolicy:terminal:configuration:processes:onPageOpen:)``
    /// without the opening and the closing: the editor starts with the script saved for the
    /// page's site, runs its text on the page with Ctrl-R, and when it ends the page and its
    /// browser are left as they are. The tabs its runs ask for with `GM_openInTab` are the
    /// owner's to open (``Ending/tabsToOpen``). A page a script leaves stuck is not replaced (the browser
    /// is not the editor's to stop); the editor says so and what to do instead.
    ///
    /// - Parameters:
    ///   - page: The page, which stays open after the editor ends.
    ///   - host: The GM API's host half the page's userscripts already use, so that values and
    ///     requests of the editor's runs and of the owner's runs are one; not shut down here.
    ///   - library: The user's script library.
    ///   - terminal: Where the editor reads keys and draws; the terminal must not be in raw mode
    ///     (the editor sets it and puts it back).
    ///   - configuration: Editor preferences.
    ///   - processes: The local processes whose exit means the browser died.
    /// - Throws: ``Failure/page(_:)`` when the page does not answer, ``Failure/terminal(_:)``
    ///   when the terminal cannot be used.
    public static func edit(
        borrowing page: PageSession,
        host: GMHost,
        library: ScriptLibrary,
        terminal: TerminalDevice = .standard,
        configuration: EditorConfiguration = EditorConfiguration(),
        processes: @escaping @Sendable () -> [ChildProcess] = { ChildProcessRegistry.shared.children }
    ) async throws(Failure) -> Ending {
        let context: PageContext
        do throws(InjectionError) {
            context = try await page.context()
        } catch {
            throw .page(.injection(error))
        }
        let ended = await edit(EditorPage(borrowing: page, address: context.url), context: context, library: library, host: host,
                               terminal: terminal, configuration: configuration, processes: processes)
        switch ended {
        case let .success(ending): return ending
        case let .failure(error): throw .terminal(error)
        }
    }

    /// The editor on `page` until it ends, with its watchdog and late-work server; the page is
    /// left open and `host` running. `notice`: a line for the status bar once the editor is up.
    private static func edit(_ page: EditorPage, context: PageContext, library: ScriptLibrary, host: GMHost, asker: EditorConnectAsker? = nil,
                             file: EditedFile? = nil, terminal: TerminalDevice, configuration: EditorConfiguration,
                             processes: @escaping @Sendable () -> [ChildProcess], notice: String? = nil) async -> Result<Ending, TerminalError> {
        let busy = BusyFlag()
        let loaded = LoadedScripts()
        let initial = file?.opened() ?? PageEditorHost.initialScript(library: library, pageURL: context.url, loaded: loaded)
        let notices = EditorNoticeRelay()
        let turn = PageTurn()
        let lateWork = LateWorkServer(page: page, turn: turn) { lines in notices.send(.laterConsole(lines)) }
        let userScripts = PageEditorHost.UserScriptSession(host: host, turn: turn, lateWork: lateWork)
        // The tabs runs ask for open in the editor's own browser, or are the borrowed page's owner's to open.
        let tabs = page.isOwned ? nil : EditorTabs.Requests()
        // Text an earlier editor on this script could not give back is offered before anything else.
        let recovered = RecoveryCopy.latest(for: initial.document.name, in: library.directory, differingFrom: initial.code)
        let app = EditorApp(
            terminal: terminal,
            page: PageInfo(title: context.title, url: context.url),
            initialScript: initial.code,
            document: initial.document,
            recovered: recovered,
            host: PageEditorHost.make(page: page, pageURL: context.url, library: library, loaded: loaded, busy: busy,
                                      session: userScripts, file: file, tabs: tabs, notify: notices.send),
            configuration: configuration)
        notices.attach(app)
        asker?.attach(notices.send)
        if let notice { notices.send(.message(notice, isError: false)) }
        let watchdog = BrowserWatchdog(processes: processes, session: { page.page.session }, isBusy: { busy.isBusy }) { reason in
            app.stop(reason: reason)
        }
        let ended: Result<Ending, TerminalError>
        do throws(TerminalError) {
            // The copy is written before the browser is stopped: a terminal that went away
            // may be followed by a SIGKILL, and the text matters more than a tidy exit.
            var ending = keep(try await app.run(), in: library)
            ending.tabsToOpen = tabs?.all ?? []
            ended = .success(ending)
        } catch {
            ended = .failure(error)
        }
        watchdog.cancel()
        userScripts.lateWork.stop()
        return ended
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
