import ArgumentParser
import Foundation
import Injection
import SystemSupport
import TerminalUI
import UserScripts
import WebDriver

/// `pagescript run URL [-e CODE | -f FILE | -]`: runs a script on a page and prints its value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Argument(help: "'-' to read the script from standard input.")
    var standardInputMarker: String?

    @Option(name: .customShort("e"), help: "The script's code.")
    var code: String?

    @Option(name: .customShort("f"), help: "A file holding the script.")
    var file: String?

    @Option(name: .long, help: "Run one library script by name or ID, whatever its patterns.")
    var script: String?

    @Option(name: .long, help: "Run a built-in example script by name (see 'pagescript examples').")
    var example: String?

    @Flag(name: .long, help: "Print one JSON object: url, title, value, console, dialogs and error.")
    var json = false

    @Option(name: .long, parsing: .unconditional,
            help: "Seconds the whole run may take, page loading included unless --load-timeout is given (default 30).")
    var timeout: Double = 30

    @Option(name: .customLong("load-timeout"), parsing: .unconditional,
            help: "Seconds the page may take to load; --timeout then covers the script alone.")
    var loadTimeout: Double?

    @Option(name: .long, help: "How alert, confirm and prompt are answered: dismiss (default) or accept.")
    var dialogs: DialogPolicy = .dismiss

    @OptionGroup var engineOptions: EngineOptions

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if let standardInputMarker, standardInputMarker != "-" {
            throw ValidationError("unexpected argument '\(standardInputMarker)'; use '-' to read the script from standard input")
        }
        let sources = [code != nil, file != nil, standardInputMarker != nil, script != nil, example != nil].filter { $0 }.count
        guard sources <= 1 else { throw ValidationError("give one script: -e CODE, -f FILE, -, --script NAME or --example NAME") }
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
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        let address: String
        let choice: EngineChoice
        do {
            address = try PageAddress.resolve(url)
            choice = try engineOptions.choice()
        } catch {
            throw fail("\(error)", .badInput)
        }
        guard let source = try chosenScript() else {
            try await runLibraryScripts(on: choice, address: address)
            return
        }
        let result: ScriptResult
        let budget = timeout
        let sharesBudget = loadTimeout == nil
        do throws(PageRunner.Failure) {
            result = try await PageRunner.withPage(
                on: choice, url: address, scriptTimeout: timeout, loadTimeout: loadTimeout ?? timeout, dialogs: dialogs
            ) { page, _ throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    // One --timeout covers loading and the script, unless loading has its own.
                    let remaining = sharesBudget ? budget - page.lastLoadDuration : budget
                    guard remaining > 0 else { throw .timedOut(seconds: budget) }
                    return try await page.run(script: source.text, mode: source.mode, timeout: remaining)
                } catch {
                    // A timeout is the user's --timeout, not what was left of it after loading.
                    if case let .timedOut(_, partial) = error { throw .injection(.timedOut(seconds: budget, partial: partial)) }
                    throw .injection(error)
                }
            }
        } catch {
            TerminationSignals.yieldToTermination()
            throw failRun(error, address: address)
        }
        ResultPrinter.print(result, asJSON: json)
        if result.error != nil { throw ExitCode.scriptFailed }
    }

    /// Reports a run that did not complete: the message on standard error (each line escaped),
    /// and with `--json` the result object with what the run produced before it failed.
    private func failRun(_ failure: PageRunner.Failure, address: String) -> ExitCode {
        ResultPrinter.printFailure(failure.description)
        if json {
            ResultPrinter.printFailureJSON(failure, address: address)
        }
        return Self.exitCode(for: failure)
    }

    /// The script the options name and how its text is read; `nil` when the library's matching
    /// scripts should run.
    private func chosenScript() throws -> (text: String, mode: ScriptMode)? {
        if let script {
            do {
                return (try libraryOptions.open().find(script).script.text, .userscript)
            } catch {
                throw fail(error.description, .badInput)
            }
        }
        if let example {
            do {
                return (try ExampleCatalog.builtIn().example(named: example).script.text, .userscript)
            } catch {
                throw fail(error.description, .badInput)
            }
        }
        guard code != nil || file != nil || standardInputMarker != nil else { return nil }
        do {
            return (try ScriptSource.read(code: code, file: file, standardInput: standardInputMarker != nil), .console)
        } catch {
            throw fail("\(error)", .badInput)
        }
    }

    private func runLibraryScripts(on choice: EngineChoice, address: String) async throws {
        let library: ScriptLibrary
        do {
            library = try libraryOptions.open()
        } catch {
            throw fail(error.description, .badInput)
        }
        let outcome: (context: PageContext, url: String, results: [LibraryScriptResult])
        do throws(PageRunner.Failure) {
            outcome = try await PageRunner.withPage(
                on: choice, url: address, scriptTimeout: timeout, loadTimeout: loadTimeout ?? timeout, dialogs: dialogs
            ) { page, context throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    let run = try await LibraryRun.runMatching(library: library, on: page)
                    return (context, run.url, run.results)
                } catch {
                    throw .injection(error)
                }
            }
        } catch {
            TerminationSignals.yieldToTermination()
            throw failRun(error, address: address)
        }
        ResultPrinter.printLibraryRun(context: outcome.context, url: outcome.url, results: outcome.results, asJSON: json)
        if outcome.results.contains(where: { if case .failure(.timedOut) = $0.outcome { true } else { false } }) {
            throw ExitCode.timedOut
        }
        if !outcome.results.allSatisfy(\.succeeded) { throw ExitCode.scriptFailed }
    }

    static func exitCode(for failure: PageRunner.Failure) -> ExitCode {
        switch failure {
        case .engine: .engineFailed
        case .injection(.timedOut), .injection(.loadTimedOut): .timedOut
        case .injection(.invalidURL), .injection(.navigationFailed), .injection(.library): .badInput
        case .injection(.webDriver), .injection(.resourceMissing): .engineFailed
        case .injection(.malformedReply), .injection(.pageChanged), .injection(.pageInterfered), .injection(.navigatedAway): .scriptFailed
        }
    }
}

extension DialogPolicy: ExpressibleByArgument {}
