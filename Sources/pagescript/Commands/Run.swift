import ArgumentParser
import Foundation
import Injection
import SystemSupport
import UserScripts
import WebDriver

/// `pagescript run URL [-e CODE | -f FILE | -]`: runs a script on a page and prints its value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run JavaScript on a page and print its value as JSON.",
        discussion: """
            The page's title and URL go to standard error, the script's completion value (a returned \
            promise is awaited) to standard output as JSON. With no script, every enabled library \
            script whose patterns match the page and whose @run-at is automatic runs, each in its own \
            scope. Exit codes: 0 ran; 1 a script threw or did not parse, or the page navigated away or \
            interfered; 2 usage or bad input, or a page that does not load; 3 engine missing or failed; \
            4 timed out.
            """)

    @Argument(help: "The page: an http, https or file URL, or a path to a local file.")
    var url: String

    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .long, help: ArgumentHelp("Run one library script by name or ID, whatever its patterns.", valueName: "script"))
    var script: String?

    @Option(name: .long, help: ArgumentHelp("Run a built-in example script by name (see 'pagescript examples').", valueName: "name"))
    var example: String?

    @Option(name: .long, help: "After the script, run the menu command it registered under this name (GM_registerMenuCommand).")
    var menu: String?

    @Flag(name: .long, help: "Print one JSON object: url, title, value, console, dialogs and error.")
    var json = false

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole run may take, page loading included unless --load-timeout is given.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(name: .customLong("load-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Seconds the page may take to load; --timeout then covers the script alone.", valueName: "seconds"))
    var loadTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("How alert, confirm and prompt are answered.", valueName: "answer"))
    var dialogs: DialogPolicy = .dismiss

    @Option(name: .long, help: ArgumentHelp("Save a PNG of the page after the script ran (with --json, its path is in the object).", valueName: "file"))
    var screenshot: String?

    @Flag(name: .long, help: "Report where the time went, phase by phase (display, driver, session, navigation, script, teardown): a line on standard error, or \"timing\" in --json.")
    var timing = false

    @OptionGroup var engineOptions: EngineOptions

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        let sources = [scriptCode.isGiven, script != nil, example != nil].filter { $0 }.count
        guard sources <= 1 else { throw ValidationError("give one script: -e CODE, -f FILE, -, --script NAME or --example NAME") }
        guard menu == nil || sources == 1 else { throw ValidationError("--menu runs a command of the script given with --script, --example, -e or -f") }
        try Self.checkSeconds(timeout, option: "--timeout")
        if let loadTimeout { try Self.checkSeconds(loadTimeout, option: "--load-timeout") }
    }

    static func checkSeconds(_ seconds: Double, option: String) throws {
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            let given = seconds == seconds.rounded() && seconds.isFinite ? String(Int(seconds)) : String(seconds)
            throw ValidationError("\(option) must be more than 0 and at most 86400 seconds, got \(given)")
        }
    }

    func run() async throws {
        guard timing else { return try await runOnce() }
        let timeline = PhaseTimeline()
        defer { if !json { ResultPrinter.printTiming(timeline) } }
        try await PhaseTimeline.$current.withValue(timeline) { try await runOnce() }
    }

    private func runOnce() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        let address = try PageAddress.resolve(url)
        let choice = engineOptions.choice()
        guard let source = try chosenScript() else {
            try await runLibraryScripts(on: choice, address: address)
            return
        }
        let budget = timeout
        let sharesBudget = loadTimeout == nil
        // A userscript (a library script, an example, code with a metadata block) gets the GM API.
        let userScript = source.userScript
        let host = try userScript.map { _ in GMHost(libraryDirectory: try userScriptLibraryDirectory()) }
        let menu = self.menu
        let outcome: Result<(result: ScriptResult, screenshot: String?), CommandFailure>
        do throws(CommandFailure) {
            outcome = .success(try await onPage(choice, address) { page, _ throws(InjectionError) in
                do throws(InjectionError) {
                    // One --timeout covers loading and the script, unless loading has its own.
                    let remaining = sharesBudget ? budget - page.lastLoadDuration : budget
                    guard remaining > 0 else { throw .timedOut(seconds: budget) }
                    var result: ScriptResult
                    if let userScript, let host {
                        result = try await page.run(userScript: userScript.script, id: userScript.id, host: host, mode: source.mode, timeout: remaining)
                        if let menu { result = try await page.runMenuCommand(menu, of: result) }
                    } else {
                        result = try await page.run(script: source.text, mode: source.mode, timeout: remaining)
                    }
                    return (result: result, screenshot: try await capture(page))
                } catch {
                    // A timeout is the user's --timeout, not what was left of it after loading.
                    if case let .timedOut(_, partial) = error { throw .timedOut(seconds: budget, partial: partial) }
                    throw error
                }
            })
        } catch {
            outcome = .failure(error)
        }
        await host?.shutdown()
        let result = try outcome.get()
        ResultPrinter.print(result.result, asJSON: json, screenshot: result.screenshot)
        if result.result.error != nil { throw CommandFailure.scriptsFailed }
    }

    /// Where a userscript that is not in the library keeps its fetched files: the library's folder,
    /// which need not exist yet (nothing is written there unless the script has files to fetch).
    private func userScriptLibraryDirectory() throws -> URL {
        try LibraryLocation.resolve(directory: libraryOptions.library, environment: ProcessInfo.processInfo.environment).directory
    }

    /// The script the options name, how its text is read, and, for a userscript, the script and
    /// its library ID; `nil` when the library's matching scripts should run.
    private func chosenScript() throws -> (text: String, mode: ScriptMode, userScript: (script: UserScript, id: ScriptID?)?)? {
        if let script {
            let stored = try libraryOptions.openForReading().find(script)
            return (stored.script.text, .userscript, (stored.script, stored.id))
        }
        if let example {
            let example = try ExampleCatalog.builtIn().example(named: example).script
            return (example.text, .userscript, (example, nil))
        }
        return try scriptCode.read().map { text in
            let script = UserScript(text: text)
            guard script.hasMetadataBlock else { return (text, .console, nil) }
            // Text with the @name and @namespace of a library script runs as that script, with its
            // values, as the managers treat a new version of an installed script.
            return (text, .console, (script, try? libraryOptions.existingLibrary()?.script(sameAs: script)?.id))
        }
    }

    private func runLibraryScripts(on choice: EngineChoice, address: String) async throws {
        // One run, one reading of the folder: the scripts installed before the page opens and
        // those that run after it loads come from the same look at the library. Only the scripts
        // for the address are kept: the library's index and matcher (megabytes for a thousand
        // scripts) are let go before the browser starts, and read again only when the page lands
        // elsewhere (a redirect).
        let planned = try PlannedScripts(library: libraryOptions.openForReading(reloadPolicy: .manual), address: address)
        FreedMemory.returnToSystem()
        let host = GMHost(libraryDirectory: planned.libraryDirectory)
        // document-start scripts are installed before the page loads, where the engine allows.
        let early = planned.documentStart
        let outcome: Result<(PageContext, (url: String, results: [LibraryScriptResult]), String?), CommandFailure>
        do throws(CommandFailure) {
            outcome = .success(try await onPage(choice, address, beforeOpening: { page throws(InjectionError) in
                _ = try await page.installDocumentStartScripts(early, url: address, host: host)
            }) { page, context throws(InjectionError) in
                let run = try await LibraryRun.runMatching(
                    planned: planned, library: { try libraryOptions.openForReading(reloadPolicy: .manual) }, on: page, host: host,
                    early: try await page.collectDocumentStartRuns())
                return (context, run, try await capture(page))
            })
        } catch {
            outcome = .failure(error)
        }
        await host.shutdown()
        let (context, run, screenshot) = try outcome.get()
        ResultPrinter.printLibraryRun(context: context, url: run.url, results: run.results, asJSON: json, screenshot: screenshot)
        if run.results.contains(where: { if case .failure(.timedOut) = $0.outcome { true } else { false } }) {
            throw CommandFailure.scriptsTimedOut
        }
        if !run.results.allSatisfy(\.succeeded) { throw CommandFailure.scriptsFailed }
    }

    /// Saves the page as `--screenshot` asks, atomically; returns the file's path.
    private func capture(_ page: PageSession) async throws(InjectionError) -> String? {
        guard let screenshot else { return nil }
        let png = try await page.screenshot()
        let file = URL(fileURLWithPath: screenshot)
        do {
            try Data(png).write(to: file, options: .atomic)
        } catch {
            throw .library("the screenshot cannot be saved to \(screenshot): \(error.localizedDescription)")
        }
        return file.path
    }

    /// Opens the page on the chosen engine and does `work` there. A run that did not complete
    /// is reported here (with `--json`, its object with what the run produced before it failed);
    /// a failure met while a termination signal tears the run down is left to the signal's
    /// handler, which exits.
    private func onPage<Output: Sendable>(
        _ choice: EngineChoice,
        _ address: String,
        beforeOpening: (@Sendable (PageSession) async throws(InjectionError) -> Void)? = nil,
        _ work: @escaping @Sendable (PageSession, PageContext) async throws(InjectionError) -> Output
    ) async throws(CommandFailure) -> Output {
        do throws(PageRunner.Failure) {
            return try await PageRunner.withPage(
                on: choice, url: address, scriptTimeout: timeout, loadTimeout: loadTimeout ?? timeout, dialogs: dialogs,
                bypassesContentSecurityPolicy: engineOptions.bypassesContentSecurityPolicy,
                beforeOpening: beforeOpening
            ) { page, context throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    return try await work(page, context)
                } catch {
                    throw .injection(error)
                }
            }
        } catch {
            TerminationSignals.yieldToTermination()
            ResultPrinter.printFailure(error.description)
            if json {
                ResultPrinter.printFailureJSON(error, address: address)
            }
            throw .reported(error)
        }
    }
}

extension DialogPolicy: ExpressibleByArgument {}
