import ArgumentParser
import EditorSession
import Foundation
import PageRuntime
import SystemSupport
import TerminalUI

/// `pagescript edit URL`: the full-screen terminal script editor on a live page.
struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Open a page and edit a script for it in a full-screen terminal editor.",
        discussion: """
            The page's title and URL are on top; Ctrl-R runs the script on the page (the browser stays \
            open while you edit), Ctrl-S saves the script named in the title bar (the site's script to \
            begin with), Ctrl-E opens the examples, Ctrl-O a named script, Ctrl-N saves it as a new \
            script, F1 lists every key, Ctrl-Q quits (asking first when there are unsaved changes). \
            When the browser dies or the terminal goes away, unsaved text is kept in the library's \
            .recovery folder. With FILE (a .user.js file of your own, outside the library), the editor \
            shows that file whole and Ctrl-S saves it back, never over a change another program made \
            meanwhile; a FILE that does not exist yet is made by the first save.
            """)

    @Argument(help: "The page: an http, https or file URL, or a path to a local file.")
    var url: String

    @Argument(help: ArgumentHelp("A userscript file of your own to edit instead of the site's script in the library.", valueName: "file"))
    var file: String?

    @Option(name: .long, help: ArgumentHelp("Seconds a script may run.", valueName: "seconds"))
    var timeout: Double = 30

    @OptionGroup var engineOptions: EngineOptions<WindowOptionsShown>
    @OptionGroup var browserSettings: BrowserSettingsOptions

    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var downloadOptions: DownloadOptions

    func validate() throws {
        try engineOptions.requireOneEngine()
        _ = try browserSettings.settings(for: engineOptions)
    }

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure.badInput("edit needs a terminal on standard input and output")
        }
        let address = try PageAddress.resolve(url)
        let library = try libraryOptions.open()
        let choice = try engineOptions.choice(settings: browserSettings.settings(for: engineOptions))

        // Until the editor owns the terminal, a signal stops the browser start-up here.
        let startupSignals = Interruption.install()
        let ending: PageEditor.Ending
        do throws(PageEditor.Failure) {
            ending = try await PageEditor.edit(url: address, on: choice, library: library,
                                                file: file.map { URL(fileURLWithPath: $0).standardizedFileURL.path(percentEncoded: false) },
                                                scriptTimeout: timeout,
                                                bypassesContentSecurityPolicy: engineOptions.bypassesContentSecurityPolicy,
                                                downloads: downloadOptions.folder, onPageOpen: {
                                                    startupSignals.cancel()
                                                    // The editor handles hang-ups while it runs; after it, a late one
                                                    // must not kill the process before the browser is stopped.
                                                    TerminationSignals.ignoreHangUps()
                                                })
        } catch {
            startupSignals.cancel()
            TerminationSignals.yieldToTermination()
            Interruption.sweep()
            throw error
        }
        Interruption.sweep()
        let outcome = ending.outcome
        if case .terminalClosed = outcome.reason {
            // Standard error may be the terminal that went away: tried once, never fatal.
            let kept = ending.recoveryFile.map { "; your unsaved script was kept in \($0.path(percentEncoded: false))" } ?? ""
            try? FileHandle.standardError.write(contentsOf: Data("pagescript: the terminal went away\(kept)\n".utf8))
            throw CommandFailure.signal(SIGHUP)
        }
        if let file = ending.recoveryFile {
            printError("pagescript: your unsaved script was kept in \(file.path(percentEncoded: false))")
        } else if let failure = ending.recoveryFailure {
            printError("pagescript: your unsaved script could not be kept: \(failure)")
        }
        switch outcome.reason {
        case let .signal(number):
            throw CommandFailure.signal(number)
        case let .stopped(reason):
            throw CommandFailure.browserStopped(reason)
        case .quit, .terminalClosed:
            if outcome.hasUnsavedChanges {
                printError("pagescript: quit with unsaved changes")
            }
        }
    }
}
