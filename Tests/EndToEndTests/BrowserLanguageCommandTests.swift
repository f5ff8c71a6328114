import Foundation
import SystemSupport
import TestSupport
import Testing

/// On a machine whose locale is `C.UTF-8` (Debian's servers and containers), pages still get a
/// real language, which `Intl` accepts; `--lang` chooses another.
struct BrowserLanguageCommandTests {
    static let probe = "navigator.language + ' ' + new Intl.DateTimeFormat(navigator.language).resolvedOptions().locale.length"

    @Test(arguments: ["webkit", "chromium"])
    func aCLocaleGivesPagesEnglish(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Language</title>"])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.probe, "--engine", engine],
                                                         environment: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("\"en-US "), "\(outcome.standardOutput)")
    }

    @Test func langChoosesTheLanguageChromiumTellsPages() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Language</title>"])
        defer { server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "navigator.languages.join()", "--lang", "de-DE",
                                                              "--engine", "chromium"])
        #expect(outcome.standardOutput == "\"de-DE,de\"\n", "\(outcome.standardError)")
        let bad = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1", "--lang", "C"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--lang takes a language tag"))
    }
}
