import ArgumentParser
import Browsing
import Engines
import Foundation
import PageRuntime
import SystemSupport
import TerminalUI

/// `pagescript browse [URL]`: a visible browser whose pages get the library's scripts, as a
/// userscript manager gives them, with what ran where shown in the terminal.
struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open a browser window whose pages get your library's scripts, as Tampermonkey gives them.",
        discussion: """
            The window opens on your display ($DISPLAY). On every page it shows (links, typed \
            addresses, back/forward, reloads), the enabled library scripts that match run once it has \
            loaded, each once per document: a pushState navigation or a page the browser kept and \
            shows again runs nothing twice (scripts that grant window.onurlchange get a urlchange \
            event). With --attach HOST:PORT it follows the \
            Chromium you started with --remote-debugging-port (and never closes it) instead. Standard \
            output has one line per page and per script run: 'page', 'back' (a kept page shown again), 'ran', 'off' (switched off for the site) or 'failed', then the \
            details, separated by tabs; console lines and errors go to standard error. On a terminal it \
            shows the same as it happens and reads keys: 1-9 run the page's menu commands (GM_registerMenuCommand), t switches \
            the page's scripts off or on for its site, e opens the editor (as in 'pagescript edit') on the page the browser \
            shows, with its site's script, and comes back when it quits; q quits. \
            With --watch, a save of a library script (in any editor) reloads the page when the script \
            runs there, and its new run is shown. Ends when the window is closed, on Ctrl-C, or on q \
            (q and Enter when standard input is not a terminal).
            """)

    @Argument(help: ArgumentHelp("The page to open first (default: an empty page).", valueName: "url"))
    var url: String?

    @Option(name: .long, help: ArgumentHelp("Seconds each script may run.", valueName: "seconds"))
    var timeout: Double = 30

    @Flag(name: .long, help: "Follow the library folder: when a script is saved, reload the page it runs on; a save whose metadata block cannot be used is reported and changes nothing.")
    var watch = false

    @OptionGroup var engineOptions: EngineOptions<WindowOptionsShown>

    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var downloadOptions: DownloadOptions

    func validate() throws {
        try Seconds.check(timeout, option: "--timeout")
        if engineOptions.headed { throw ValidationError("browse always opens a window; leave out --headed") }
        try engineOptions.requireOneEngine()
    }

    func run() async throws {
        // A signal ends browsing with the terminal as it was (a no-op when it is not in raw mode).
        let installSignals: @Sendable () -> TerminationSignals = { Interruption.install(beforeExit: { BrowseTerminalView.restoreAfterSignal() }) }
        let signals = installSignals()
        // The editor (`e`) borrows the signals and installs them again afterwards.
        var editing: BrowseEditing?
        defer {
            signals.cancel()
            editing?.cancel()
            Interruption.sweep()
        }
        let attached = engineOptions.attach != nil
        var choice = engineOptions.choice()
        if !attached {
            // An attached browser already has its window; any other is opened on the user's display.
            guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
                throw CommandFailure.badInput("browse opens a browser window on your display, and $DISPLAY is not set: run it in your desktop session")
            }
            if case let .local(engine, options) = choice {
                choice = .local(engine, options: LaunchOptions(display: .user(display), profileDirectory: options.profileDirectory))
            }
        }
        // An attached browser stays on the page it shows unless a URL is given.
        let address = try url.map { try PageAddress.resolve($0) } ?? (attached ? nil : "about:blank")
        let library = try libraryOptions.open()
        let stop = OnceFlag()
        // On a terminal, a live view with keys; otherwise lines for a program to read.
        var view: BrowseTerminalView?
        if StandardStream.input.isTerminal, StandardStream.output.isTerminal {
            do {
                view = try BrowseTerminalView.start(attached: attached, until: stop)
            } catch {
                throw CommandFailure.badInput("browse could not read keys from the terminal: \(error)")
            }
            editing = view.map { BrowseEditing(view: $0, library: library, stop: stop, signals: signals, installSignals: installSignals) }
        } else {
            BrowseLines.watchForQuit(stop)
        }
        defer { view?.restore() }
        let ending: BrowserFollower.Ending
        let (edit, terminal) = (editing?.handler, view)
        do throws(PageRunner.Failure) {
            // The follower opens the first page itself, once it follows the browser, so that the
            // page's `document-start` scripts run there too.
            ending = try await PageRunner.withPage(on: choice, url: nil, scriptTimeout: timeout,
                                                   bypassesContentSecurityPolicy: engineOptions.bypassesContentSecurityPolicy) { page, _ in
                let follower = BrowserFollower(page: page, library: library, opening: address, asker: terminal?.ask, followingSaves: watch, downloads: downloadOptions.folder)
                if let terminal {
                    return await follower.follow(requests: terminal.requests, isStopped: { stop.isClaimed }, report: terminal.show, edit: edit)
                }
                return await follower.follow(isStopped: { stop.isClaimed }) { printLines(BrowseLines.lines(for: $0)) }
            }
        } catch {
            view?.restore()
            TerminationSignals.yieldToTermination()
            printLines(ReportRenderer.messageLines(error.description))
            throw CommandFailure.reported(error)
        }
        view?.restore()
        // A SIGTERM stops the browser under the follower, which then ends as if its window had
        // closed: the signal's own exit (128 + the signal) is the one that counts.
        TerminationSignals.yieldToTermination()
        if let signal = editing?.signal { throw CommandFailure.signal(signal) }
        switch ending {
        case .windowClosed: printError("the browser window was closed")
        case .stopped: printError(attached ? "stopped; your browser is left open" : "stopped; the browser is closed")
        }
    }
}
