import ArgumentParser
import Foundation
import PageRuntime
import SystemSupport
import UserScripts

/// `pagescript run URL [-e CODE | -f FILE | -]`: runs a script on a page and prints its value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run JavaScript on a page and print its value as JSON.",
        discussion: """
            The page's title and URL go to standard error (not with --quiet), the script's completion value (a \
            returned promise is awaited) to standard output as JSON. With no script, every enabled library script \
            whose patterns match the page and whose @run-at is automatic runs, each in its own scope. Code given \
            with -e, -f or - together with --script, --example or --with-library runs after that script (or the \
            library's) on the same page, to inspect what it did: its value is the one on standard output. Exit \
            codes: 0 ran (also on a page parsed but not finished loading in time: a warning says so); 1 a script threw or did not parse, or the page navigated away or interfered; 2 usage or \
            bad input, or a page that does not load (with --fail-on-http-error, one the server answered with an \
            error status); 3 engine missing or failed; 4 timed out. With --watch, the run is repeated on every save of \
            the -f FILE. With --engine all (every engine installed here) or a list such as webkit,chromium, it runs on \
            each at once and compares them: the same outcome is said in one line, differences are shown side by side \
            with ≠; --json gives {"engines": {"webkit": {...}, ...}, "skipped", "differences"}; the exit code is the worst.
            """)

    @Argument(help: "The page: an http, https or file URL, about:blank, a data: URL, or a path to a local file.")
    var url: String

    @OptionGroup var choice: ScriptChoiceOptions

    @Option(name: .long, help: "After the script, run the menu command it registered under this name (GM_registerMenuCommand).")
    var menu: String?

    @Flag(name: .customLong("with-library"), help: "Run the library's scripts that match the page first, then the -e, -f or - code.")
    var withLibrary = false

    @Flag(name: .long, help: "Print one JSON object: url, title, value, console, dialogs and error.")
    var json = false

    @OptionGroup var loadOptions: LoadOptions
    @OptionGroup var dialogOptions: DialogOptions

    @OptionGroup var pictureOptions: PictureOptions

    @Flag(name: .long, help: "Report where the time went, phase by phase (display, driver, session, navigation, script, teardown): a line on standard error, or \"timing\" in --json.")
    var timing = false

    @OptionGroup var quietOption: QuietOption
    @OptionGroup var engineOptions: EngineOptions<WindowOptionsShown>
    @OptionGroup var browserSettings: BrowserSettingsOptions
    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .long, help: "Run again each time the file given with -f is saved, until Ctrl-C; a save whose metadata block cannot be used is reported, and the run before stands.")
    var watch = false

    func validate() throws {
        try choice.validateForRun(withLibrary: withLibrary, menu: menu)
        if watch, choice.scriptCode.file ?? "-" == "-" {
            throw ValidationError("--watch follows the file given with -f FILE; to follow the library's scripts, use browse --watch")
        }
        if engineOptions.chosenEngines?.isSeveral == true, timing || pictureOptions.screenshot != nil {
            throw ValidationError("--timing and --screenshot are for one engine; leave them out when comparing engines")
        }
        _ = try browserSettings.settings(for: engineOptions)
    }

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        guard watch, let file = choice.scriptCode.file else { return try await runOnce() }
        // Ctrl-C ends the watch through `Interruption`, which stops the browsers of a run under way.
        try await RunWatch.follow(file: URL(fileURLWithPath: file)) { event in
            printLines(RunWatch.lines(for: event, file: file))
            guard case .run = event else { return }
            do {
                try await runOnce()
            } catch {
                // The run's own lines already said what went wrong; a failure of its own is shown, and the watch goes on.
                if !"\(error)".isEmpty { printLines(ReportRenderer.messageLines("\(error)")) }
            }
            Interruption.sweep()
        }
    }

    /// One run, on one engine or, for a list or `all`, on each (``EngineComparison``).
    private func runOnce() async throws {
        let address = try PageAddress.resolve(url)
        if let selection = engineOptions.chosenEngines, selection.isSeveral { return try await compareEngines(selection, address: address) }
        let timeline = timing ? PhaseTimeline() : nil
        defer { if let timeline, !json { printLines([ReportRenderer.timingLine(timeline)]) } }
        let request = try self.request(address: address)
        let outcome = await PhaseTimeline.$current.withValue(timeline) { () async -> Result<RunReport, PageRunner.Failure> in
            do throws(PageRunner.Failure) {
                return .success(try await PageRun.perform(request))
            } catch {
                return .failure(error)
            }
        }
        let report: RunReport
        switch outcome {
        case let .success(value):
            report = value
        case let .failure(error):
            // A failure met while a termination signal tears the run down is left to its handler.
            TerminationSignals.yieldToTermination()
            printLines(ReportRenderer.failureLines(error, address: address, asJSON: json, isLibrary: request.script.isLibrary,
                                                   timeline: timeline, quiet: quietOption.quiet))
            throw CommandFailure.reported(error)
        }
        printLines(ReportRenderer.lines(of: report, asJSON: json, timeline: timeline, quiet: quietOption.quiet))
        if let failure = CommandFailure(ending: .success(report)) { throw failure }
    }
}
