import ArgumentParser
import Batch
import Engines
import Foundation
import PageRuntime
import SystemSupport

/// `pagescript batch [URLS_FILE | -] [-e CODE | -f FILE | - | --script REF | --example NAME]`: one
/// script over every URL of a list, on many sessions at once, one JSON line per page.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run a script on every URL of a list, on many sessions at once; print one JSON line per page.",
        discussion: """
            URLs are read one per line from URLS_FILE or standard input (blank lines and # comments are skipped), \
            or from the url column of a CSV or TSV file, or the url member of JSON lines: a row's other columns \
            reach the script as `input` (input.url, input.id, ...) and its record as `fields`. \
            With no script, each page runs the library scripts that match it, as 'pagescript run URL' does. \
            Records go to standard output or --output, in the order pages finish (--ordered: input order); \
            --resume continues an interrupted --output file. --quiet leaves out the progress line and, when \
            every page ran, the summary line. Exit codes: 0 every page ran its script without error; 1 some \
            did not; 2 usage or bad input; 3 no session could be had; 128+N stopped by signal N.
            """)

    @Argument(help: "The URL list, one URL per line, or a CSV, TSV or JSON-lines file of rows with a url ('-' or nothing: standard input).")
    var urls: String?

    @OptionGroup var choice: ScriptChoiceOptions

    @Option(name: .long, help: ArgumentHelp("Sessions open at once.", valueName: "count"))
    var jobs = 2
    @Option(name: .long, help: ArgumentHelp("Seconds each page may take to load and run the script (with --load-timeout: to run it).", valueName: "seconds"))
    var timeout: Double = 30
    @OptionGroup var loadTimeoutOption: LoadTimeoutOption
    @OptionGroup var waitUntilOption: WaitUntilOption
    @Option(name: .long, help: ArgumentHelp("Times a page is tried again, with backoff, when its session dies under it, it times out or does not load, or its server answers 5xx.", valueName: "count"))
    var retries = 1

    @OptionGroup var files: RecordFileOptions

    @Option(name: .customLong("session-wait"), help: ArgumentHelp("Seconds to wait for a session from a full or unreachable endpoint before stopping.", valueName: "seconds"))
    var sessionWait: Double = 300

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Stop a local browser process above this many MB and count its page as crashed (0: no limit).", valueName: "MB"))
    var memoryLimit = 2048

    @Option(name: .long, help: ArgumentHelp("The size every page is drawn at, WIDTHxHEIGHT (innerWidth by innerHeight).", valueName: "size"))
    var viewport: Viewport?
    @OptionGroup var politeness: PolitenessOptions
    @OptionGroup var dialogOptions: DialogOptions
    @OptionGroup var quietOption: QuietOption
    @OptionGroup var engineOptions: EngineOptions<WindowOptionsHidden>
    @OptionGroup var browserSettings: BrowserSettingsOptions
    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        try engineOptions.requireOneEngine()
        guard choice.given <= 1 else {
            throw ValidationError("give one script: -e CODE, -f FILE, -, --script NAME or --example NAME (or none, to run the library's matching scripts)")
        }
        if choice.scriptCode.standardInputMarker != nil, urls == nil || urls == "-" {
            throw ValidationError("standard input cannot hold both the URL list and the script: give the list as a file, or the script with -e or -f")
        }
        if let problem = BatchConfiguration.problem(jobs: jobs, timeout: timeout, retries: retries, sessionWait: sessionWait, memoryLimitMB: memoryLimit) {
            throw ValidationError(problem)
        }
        _ = try browserSettings.settings(for: engineOptions)
        try libraryOptions.refuseFile(hint: "to run the library's matching scripts give no script: pagescript batch URLS_FILE")
    }

    func run() async throws {
        let waitUntil = waitUntilOption.waitUntil
        let source = try SessionSources.source(for: engineOptions.choice(settings: browserSettings.settings(for: engineOptions)).waiting(until: waitUntil))
        let batchScript = try choice.batchScript(library: libraryOptions)
        let plan = try files.plan(input: urls)
        var settings = BatchConfiguration()
        settings.jobs = jobs
        settings.timeout = timeout
        settings.loadTimeout = loadTimeoutOption.loadTimeout
        settings.waitUntil = waitUntil
        settings.connecting = choice.connect
        settings.downloads = choice.downloadOptions.folder
        settings.retries = retries
        settings.ordered = files.ordered
        settings.sessionWait = sessionWait
        settings.dialogs = dialogOptions.dialogs
        politeness.apply(to: &settings)
        settings.viewport = viewport
        settings.bypassesContentSecurityPolicy = engineOptions.bypassesContentSecurityPolicy
        settings.memoryLimit = memoryLimit > 0 ? UInt64(memoryLimit) * 1024 * 1024 : nil
        let runner = BatchRunner(configuration: settings, source: source, script: batchScript, plan: plan)
        // A batch killed with SIGKILL could not stop its browsers; this one does, and marks its own.
        let orphans = CommandSupervision.takeCharge(as: .batch)
        if orphans > 0 { printError("pagescript batch: stopped \(orphans) processes left running by a batch that was killed") }
        let signals = TerminationSignals { number in
            runner.stop(forSignal: number) { Foundation.exit(128 + number) }
        }
        let drawn = ProgressDisplay.draws(errorIsTerminal: StandardStream.error.isTerminal && !quietOption.quiet,
                                          recordsOnTerminal: files.output == nil && StandardStream.output.isTerminal)
        let display = ProgressDisplay(onTerminal: drawn) { write($0, to: .error) }
        let summary = await runner.run { progress in display.show(progress) }
        signals.cancel()
        Interruption.sweep()
        display.finish()
        let (line, verdict) = BatchVerdict.closing(summary, outputPath: files.output, sessionWait: sessionWait, quiet: quietOption.quiet)
        if let line { printError(line) }
        switch verdict {
        case .succeeded: return
        case .pagesFailed: throw CommandFailure.scriptsFailed
        case let .stopped(signal): throw CommandFailure.signal(signal ?? SIGTERM)
        case let .noSession(message): throw CommandFailure.noSession(message)
        case .readerGone: throw CommandFailure.signal(SIGPIPE)
        case let .badInput(message): throw CommandFailure.badInput(message)
        }
    }
}
