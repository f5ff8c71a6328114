import ArgumentParser
import Foundation
import Injection
import SystemSupport
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
            scope. Exit codes: 0 ran; 1 a script threw or did not parse; 2 usage or bad input; \
            3 engine missing or failed; 4 timed out.
            """)

    @Argument(help: "The page: an http, https or file URL, or a path to a local file.")
    var url: String

    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .long, help: "Run one library script by name or ID, whatever its patterns.")
    var script: String?

    @Option(name: .long, help: "Run a built-in example script by name (see 'pagescript examples').")
    var example: String?

    @Flag(name: .long, help: "Print one JSON object: url, title, value, console and error.")
    var json = false

    @Option(name: .long, help: "Seconds the script may run (default 30).")
    var timeout: Double = 30

    @OptionGroup var engineOptions: EngineOptions

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        let sources = [scriptCode.isGiven, script != nil, example != nil].filter { $0 }.count
        guard sources <= 1 else { throw ValidationError("give one script: -e CODE, -f FILE, -, --script NAME or --example NAME") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        let address = try PageAddress.resolve(url)
        guard let source = try chosenScript() else {
            try await runLibraryScripts(address: address)
            return
        }
        let result = try await onPage(address) { page, _ throws(InjectionError) in
            try await page.run(script: source)
        }
        ResultPrinter.print(result, asJSON: json)
        if result.error != nil { throw CommandFailure.scriptsFailed }
    }

    /// The script the options name; `nil` when the library's matching scripts should run.
    private func chosenScript() throws -> String? {
        if let script {
            return try libraryOptions.open().find(script).script.text
        }
        if let example {
            return try ExampleCatalog.builtIn().example(named: example).script.text
        }
        return try scriptCode.read()
    }

    private func runLibraryScripts(address: String) async throws {
        let library = try libraryOptions.open()
        let (context, run) = try await onPage(address) { page, context throws(InjectionError) in
            (context, try await LibraryRun.runMatching(library: library, on: page))
        }
        ResultPrinter.printLibraryRun(context: context, url: run.url, results: run.results, asJSON: json)
        if run.results.contains(where: { if case .failure(.timedOut) = $0.outcome { true } else { false } }) {
            throw CommandFailure.scriptsTimedOut
        }
        if !run.results.allSatisfy(\.succeeded) { throw CommandFailure.scriptsFailed }
    }

    /// Opens the page on the chosen engine and does `work` there. A failure met while a
    /// termination signal tears the run down is left to the signal's handler, which exits.
    private func onPage<Output: Sendable>(
        _ address: String,
        _ work: @escaping @Sendable (PageSession, PageContext) async throws(InjectionError) -> Output
    ) async throws(PageRunner.Failure) -> Output {
        do {
            return try await PageRunner.withPage(on: engineOptions.choice(), url: address, scriptTimeout: timeout) { page, context throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    return try await work(page, context)
                } catch {
                    throw .injection(error)
                }
            }
        } catch {
            TerminationSignals.yieldToTermination()
            throw error
        }
    }
}
