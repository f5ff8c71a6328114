import ArgumentParser
import EditorSession
import Foundation
import Injection
import SystemSupport
import TerminalUI

/// `pagescript edit URL`: the full-screen terminal script editor on a live page.
struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a page and edit a script for it in a full-screen terminal editor.",
        discussion: """
            The page's title and URL are on top; Ctrl-R runs the script on the page (the browser stays \
            open while you edit), Ctrl-S saves it for this site, Ctrl-E opens the examples, Ctrl-O a \
            named script, Ctrl-N names and saves the script with its match patterns, Ctrl-Q quits \
            (asking first when there are unsaved changes). The script saved for the site is loaded.
            """)

    @Argument(help: "The page: an http, https or file URL, or a path to a local file.")
    var url: String

    @Option(name: .long, help: "Seconds a script may run (default 30).")
    var timeout: Double = 30

    @OptionGroup var engineOptions: EngineOptions

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure.badInput("edit needs a terminal on standard input and output")
        }
        let address = try PageAddress.resolve(url)
        let library = try libraryOptions.open()

        // Until the editor owns the terminal, a signal stops the browser start-up here.
        let startupSignals = Interruption.install()
        let outcome: EditorOutcome
        do throws(PageEditor.Failure) {
            outcome = try await PageEditor.edit(url: address, on: engineOptions.choice(), library: library, scriptTimeout: timeout,
                                                onPageOpen: { startupSignals.cancel() })
        } catch {
            startupSignals.cancel()
            TerminationSignals.yieldToTermination()
            Interruption.sweep()
            throw error
        }
        Interruption.sweep()
        switch outcome.reason {
        case let .signal(number):
            throw CommandFailure.signal(number)
        case let .stopped(reason):
            throw CommandFailure.browserStopped(reason)
        case .quit, .inputClosed:
            if outcome.hasUnsavedChanges {
                printError("pagescript: quit with unsaved changes")
            }
        }
    }
}
