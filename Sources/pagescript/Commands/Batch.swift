import ArgumentParser
import Batch
import Foundation
import Injection
import SystemSupport
import TerminalText
import UserScripts
import WebDriver

/// `pagescript batch [URLS_FILE | -] [-e CODE | -f FILE | - | --script REF | --example NAME]`: one
/// script over every URL of a list, on many sessions at once, one JSON line per page.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run a script on every URL of a list, on many sessions at once; print one JSON line per page.",
        discussion: """
            URLs are read one per line from URLS_FILE or standard input (blank lines and # comments \
            are skipped). With no script, each page runs the library scripts that match it, as \
            'pagescript run URL' does. Records go to standard output or --output, in the order pages \
            finish (--ordered: input order); --resume continues an interrupted --output file. Exit \
            codes: 0 every page ran its script without error; 1 some did not; 2 usage or bad input; \
            3 no session could be had; 128+N stopped by signal N.
            """)

    @Argument(help: "The URL list, one URL per line ('-' or nothing: standard input).")
    var urls: String?

    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .long, help: ArgumentHelp("Run one library script by name or ID on every page, whatever its patterns.", valueName: "script"))
    var script: String?

    @Option(name: .long, help: ArgumentHelp("Run a built-in example script by name (see 'pagescript examples').", valueName: "name"))
    var example: String?

    @Option(name: .long, help: ArgumentHelp("Sessions open at once.", valueName: "count"))
    var jobs = 2

    @Option(name: .long, help: ArgumentHelp("Seconds each page may take to load and run the script.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(name: .long, help: ArgumentHelp("Times a page is tried again when its session dies under it.", valueName: "count"))
    var retries = 1

    @Option(name: .long, help: ArgumentHelp("Write the records to this JSONL file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Continue the --output file: skip the entries it records, drop a torn last line.")
    var resume = false

    @Flag(name: .long, help: "Write records in input order (else as pages finish).")
    var ordered = false

    @Option(name: .customLong("session-wait"), help: ArgumentHelp("Seconds to wait for a session from a full or unreachable endpoint before stopping.", valueName: "seconds"))
    var sessionWait: Double = 300

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Stop a local browser process above this many MB and count its page as crashed (0: no limit).", valueName: "MB"))
    var memoryLimit = 2048

    @Option(name: .long, help: ArgumentHelp("With --webdriver-url: more capabilities for new sessions, as a JSON object (credentials, browser options).", valueName: "json"))
    var capabilities: String?

    @OptionGroup var engineOptions: EngineOptions

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        guard [scriptCode.isGiven, script != nil, example != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("give one script: -e CODE, -f FILE, -, --script NAME or --example NAME (or none, to run the library's matching scripts)")
        }
        if scriptCode.standardInputMarker != nil, urls == nil || urls == "-" {
            throw ValidationError("standard input cannot hold both the URL list and the script: give the list as a file, or the script with -e or -f")
        }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
        guard (0...100).contains(retries) else { throw ValidationError("--retries must be between 0 and 100") }
        guard sessionWait >= 0 else { throw ValidationError("--session-wait must not be negative") }
        guard memoryLimit >= 0 else { throw ValidationError("--memory-limit must not be negative") }
        if capabilities != nil, engineOptions.webDriverURL == nil {
            throw ValidationError("--capabilities is for a --webdriver-url endpoint")
        }
        if engineOptions.webDriverURL == nil, engineOptions.engine == .safari {
            throw ValidationError("""
                batch runs on webkit, chromium or a --webdriver-url endpoint: Safari allows one automation session at a time; \
                start 'safaridriver --port 4444' and use --webdriver-url http://127.0.0.1:4444 --jobs 1
                """)
        }
        if let library = libraryOptions.library {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: library, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw ValidationError("--library takes the script library's folder, and '\(library)' is a file; to run the library's matching scripts give no script: pagescript batch URLS_FILE")
            }
        }
    }

    func run() async throws {
        let source = try sessionSource()
        let batchScript = try chosenScript()
        let plan = try BatchPlan.prepare(inputPath: urls, outputPath: output, resume: resume)
        var settings = BatchConfiguration()
        settings.jobs = jobs
        settings.timeout = timeout
        settings.retries = retries
        settings.ordered = ordered
        settings.sessionWait = sessionWait
        settings.bypassesContentSecurityPolicy = engineOptions.bypassesContentSecurityPolicy
        settings.memoryLimit = memoryLimit > 0 ? UInt64(memoryLimit) * 1024 * 1024 : nil
        let runner = BatchRunner(configuration: settings, source: source, script: batchScript, plan: plan)

        // A closed pipe is an error to handle (the reader of `batch | head` went away), not a
        // signal that kills the process mid-line.
        signal(SIGPIPE, SIG_IGN)
        OrphanReaper.adoptOrphans()
        // A batch killed with SIGKILL could not stop its browsers; this one does, and marks its own.
        let orphans = LeftoverProcesses.stopOrphans(of: .batch)
        if orphans > 0 { printError("pagescript batch: stopped \(orphans) processes left running by a batch that was killed") }
        LeftoverProcesses.markChildren(as: .batch)
        let signals = TerminationSignals { number in
            runner.requestStop(signal: number)
            // The runner closes everything within seconds; should it not, the process ends
            // anyway, between two records, with every child stopped.
            DispatchQueue.global().asyncAfter(deadline: .now() + 15) {
                runner.withOutputQuiet {
                    ChildProcessRegistry.shared.killAll()
                    OrphanReaper.stopAllDescendants()
                    Foundation.exit(128 + number)
                }
            }
        }
        let display = BatchProgressDisplay(onTerminal: isatty(STDERR_FILENO) == 1)
        let summary = await runner.run { progress in display.show(progress) }
        signals.cancel()
        Interruption.sweep()
        display.finish()
        try report(summary)
    }

    /// Prints the summary and throws what the ending calls for (``ExitStatus`` has the codes).
    private func report(_ summary: BatchSummary) throws {
        let line = "pagescript batch: \(summary.line)"
        let resumeHint = output.map { "; continue with: --output \(TerminalSafeText.escaped($0)) --resume" } ?? ""
        switch summary.ending {
        case .completed:
            printError(line + (output.map { "; records in \(TerminalSafeText.escaped($0))" } ?? ""))
            if summary.progress.failed > 0 { throw CommandFailure.scriptsFailed }
        case let .stopped(signal):
            printError(line + "; stopped" + resumeHint)
            throw CommandFailure.signal(signal ?? SIGTERM)
        case let .noSession(reason):
            printError(line)
            throw CommandFailure.noSession("no session could be started: \(reason)")
        case let .sessionsLost(reason):
            printError(line)
            throw CommandFailure.noSession("no session for \(Int(sessionWait)) s, so the batch stopped: \(reason)\(resumeHint)")
        case .failed(.output(.closedByReader)):
            // `pagescript batch ... | head`: the reader had what it wanted.
            throw CommandFailure.signal(SIGPIPE)
        case let .failed(failure):
            printError(line)
            switch failure {
            case .pageScript: throw CommandFailure.noSession(failure.description)
            case .input, .inputChanged, .output: throw CommandFailure.badInput(failure.description + resumeHint)
            }
        }
    }

    /// Where sessions come from, from the engine options.
    private func sessionSource() throws -> any SessionSource {
        if engineOptions.attach != nil {
            throw CommandFailure.badInput("""
                batch does not attach to your browser: it drives several sessions at once, replaces a session whose page \
                failed and stops a browser process that uses too much memory, which would take over and close your own tabs; \
                run one page in your browser with 'pagescript run URL --attach HOST:PORT'
                """)
        }
        guard engineOptions.launchOptions == LaunchOptions() else {
            throw CommandFailure.badInput("batch runs its browsers hidden with throwaway profiles; --headed and --profile are for run, edit and browse")
        }
        switch engineOptions.choice() {
        case .local(.chromium, _):
            return LocalChromiumSource()
        case .local:
            return LocalWebKitSource()
        case let .remote(endpoint, browserName):
            return RemoteSource(endpoint: endpoint, browserName: browserName, capabilities: try extraCapabilities())
        }
    }

    /// `--capabilities`, parsed.
    private func extraCapabilities() throws -> [(key: String, value: JSONValue)] {
        guard let capabilities else { return [] }
        guard case let .object(members)? = try? JSONValue(parsing: capabilities) else {
            throw CommandFailure.badInput("--capabilities must be a JSON object, such as '{\"platformName\":\"linux\"}'")
        }
        return members
    }

    /// The script the options name, or the library's matching scripts when none is named.
    private func chosenScript() throws -> BatchScript {
        if let script {
            return .code(try libraryOptions.open().find(script).script.text)
        }
        if let example {
            return .code(try ExampleCatalog.builtIn().example(named: example).script.text)
        }
        if let code = try scriptCode.read() {
            return .code(code)
        }
        let location = try LibraryLocation.resolve(directory: libraryOptions.library, environment: ProcessInfo.processInfo.environment)
        // Read once: every page of the batch runs the same scripts.
        return .library(try ScriptLibrary(location: location, reloadPolicy: .manual))
    }
}

/// The progress line on standard error, redrawn in place at most a few times a second, only
/// when standard error is a terminal; and a note, terminal or not, when pages wait for a
/// session.
private final class BatchProgressDisplay: @unchecked Sendable {
    private let onTerminal: Bool
    private let lock = NSLock()
    private var lineShown = false
    private var waitNoted = false

    init(onTerminal: Bool) {
        self.onTerminal = onTerminal
    }

    func show(_ progress: BatchProgress) {
        lock.lock()
        defer { lock.unlock() }
        if progress.waitingForSession > 0, !waitNoted, let reason = progress.waitReason {
            waitNoted = true
            clearLine()
            printError("pagescript batch: waiting for a session, with backoff: \(TerminalSafeText.escaped(reason))")
        } else if progress.waitingForSession == 0 {
            waitNoted = false
        }
        guard onTerminal else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + ProgressLine.render(progress)).utf8))
        lineShown = true
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        clearLine()
    }

    private func clearLine() {
        guard lineShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        lineShown = false
    }
}
