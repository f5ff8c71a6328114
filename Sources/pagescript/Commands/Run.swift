import ArgumentParser
import Foundation
import Injection
import SystemSupport
import TerminalUI
import WebDriver

/// `pagescript run URL [-e CODE | -f FILE | -]`: runs a script on a page and prints its value.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run JavaScript on a page and print its value as JSON.",
        discussion: """
            The page's title and URL go to standard error, the script's completion value (a returned \
            promise is awaited) to standard output as JSON. Exit codes: 0 ran; 1 the script threw or \
            did not parse; 2 usage or bad input; 3 engine missing or failed; 4 timed out.
            """)

    @Argument(help: "The page: an http, https or file URL, or a path to a local file.")
    var url: String

    @Argument(help: "'-' to read the script from standard input.")
    var standardInputMarker: String?

    @Option(name: .customShort("e"), help: "The script's code.")
    var code: String?

    @Option(name: .customShort("f"), help: "A file holding the script.")
    var file: String?

    @Flag(name: .long, help: "Print one JSON object: url, title, value, console and error.")
    var json = false

    @Option(name: .long, help: "Seconds the script may run (default 30).")
    var timeout: Double = 30

    @OptionGroup var engineOptions: EngineOptions

    func validate() throws {
        if let standardInputMarker, standardInputMarker != "-" {
            throw ValidationError("unexpected argument '\(standardInputMarker)'; use '-' to read the script from standard input")
        }
        let sources = [code != nil, file != nil, standardInputMarker != nil].filter { $0 }.count
        guard sources <= 1 else { throw ValidationError("give the script once: -e CODE, -f FILE or -") }
        guard sources == 1 else { throw ValidationError("give a script: -e CODE, -f FILE or - (standard input)") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }

        let script: String
        do {
            script = try ScriptSource.read(code: code, file: file, standardInput: standardInputMarker != nil)
        } catch {
            printError("pagescript: \(error)")
            throw ExitCode.badInput
        }
        let address: String
        let choice: EngineChoice
        do {
            address = try PageAddress.resolve(url)
            choice = try engineOptions.choice()
        } catch {
            printError("pagescript: \(error)")
            throw ExitCode.badInput
        }

        let result: ScriptResult
        do throws(PageRunner.Failure) {
            result = try await PageRunner.withPage(on: choice, url: address, scriptTimeout: timeout) { page, _ throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    return try await page.run(script: script)
                } catch {
                    throw .injection(error)
                }
            }
        } catch {
            TerminationSignals.yieldToTermination()
            printError("pagescript: \(TerminalSafeText.escaped(error.description))")
            throw Self.exitCode(for: error)
        }
        ResultPrinter.print(result, asJSON: json)
        if result.error != nil { throw ExitCode.scriptFailed }
    }

    static func exitCode(for failure: PageRunner.Failure) -> ExitCode {
        switch failure {
        case .engine: .engineFailed
        case .injection(.timedOut): .timedOut
        case .injection(.invalidURL), .injection(.navigationFailed): .badInput
        case .injection(.webDriver), .injection(.resourceMissing): .engineFailed
        case .injection(.malformedReply), .injection(.pageChanged): .scriptFailed
        }
    }
}
