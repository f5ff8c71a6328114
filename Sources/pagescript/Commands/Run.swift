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
            error status); 3 engine missing or failed; 4 timed out.
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

    func validate() throws {
        try choice.validateForRun(withLibrary: withLibrary, menu: menu)
        _ = try browserSettings.settings(for: engineOptions)
    }

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        let timeline = timing ? PhaseTimeline() : nil
        defer { if let timeline, !json { printLines([ReportRenderer.timingLine(timeline)]) } }
        let address = try PageAddress.resolve(url)
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
        switch report.ending {
        case .succeeded: return
        case .scriptFailed: throw CommandFailure.scriptsFailed
        case .timedOut: throw CommandFailure.scriptsTimedOut
        }
    }

    /// The run the options describe.
    private func request(address: String) throws -> RunRequest {
        let script: RunRequest.Script
        if let chosen = try choice.runScript(library: libraryOptions, menu: menu, withLibrary: withLibrary) {
            script = chosen
        } else {
            // One run, one reading of the folder: the scripts installed before the page opens and
            // those that run after it loads come from the same look at the library.
            let planned = try PlannedScripts(library: libraryOptions.openForReading(reloadPolicy: .manual), address: address)
            script = .library(planned) { [libraryOptions] in try libraryOptions.openForReading(reloadPolicy: .manual) }
        }
        // A browser never asked for a picture renders as a batch's does.
        let engine = try engineOptions.choice(takingScreenshots: pictureOptions.screenshot != nil, viewport: pictureOptions.viewport,
                                              settings: browserSettings.settings(for: engineOptions))
        var request = RunRequest(engine: engine, address: address, script: script, timeout: loadOptions.timeout)
        request.loadTimeout = loadOptions.loadTimeout
        request.waitUntil = loadOptions.waitUntilOption.waitUntil
        request.failsOnHTTPError = loadOptions.failsOnHTTPError
        request.dialogs = dialogOptions.dialogs
        request.screenshot = try pictureOptions.request(engine: engine)
        request.bypassesContentSecurityPolicy = engineOptions.bypassesContentSecurityPolicy
        request.inspection = try choice.inspection(withLibrary: withLibrary)
        request.connecting = choice.connect
        return request
    }
}
