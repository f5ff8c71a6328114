import ArgumentParser
import SystemSupport
import UserScripts

/// `pagescript match PATTERN URL...`: whether a match pattern matches each URL.
struct Match: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Check URLs against a match pattern: one line per URL, 'match' or 'no match', a tab, the URL.",
        discussion: "Exits 0 when at least one URL matched, 1 when none did, 2 with the reason (and a suggested fix where one exists) when the pattern is invalid. A URL that does not parse never matches.")

    @Argument(help: "A match pattern, e.g. '*://*.example.com/*' or '<all_urls>'.")
    var pattern: String

    @Argument(help: "The URLs to check.")
    var urls: [String] = []

    func run() throws {
        let compiled = try MatchPattern(pattern)
        var anyMatched = false
        for text in urls {
            let matched = (try? PageURL(text)).map(compiled.matches) ?? false
            anyMatched = anyMatched || matched
            printOutput("\(matched ? "match" : "no match")\t\(TerminalSafeText.escaped(text))")
        }
        // Like grep: 1 when nothing matched, so a shell can test it.
        if !anyMatched { throw CommandFailure.noMatch }
    }
}
