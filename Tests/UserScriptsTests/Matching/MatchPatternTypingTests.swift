import Testing
import UserScripts

/// What a pattern field refuses as it is typed: only what no editing can make valid.
struct MatchPatternTypingTests {
    static let valid = [
        "*://example.com/*", "https://*.example.co.uk/path?q=*", "http://127.0.0.1:8080/*", "http://[::1]:3000/x",
        "file:///home/user/*", "<all_urls>", "https://bücher.example/*", "*://*/*",
    ]

    @Test(arguments: valid)
    func everyPrefixOfAValidPatternIsAccepted(pattern: String) {
        #expect(MatchPattern.problem(with: pattern) == nil, "\(pattern)")
        for end in pattern.indices {
            #expect(MatchPattern.canBecomeValid(String(pattern[..<end])), "\(pattern[..<end])")
        }
    }

    @Test(arguments: [
        "ftp://", "ftp://example.com/*", "chrome-extension://x/*", "https://exa mple", "https://example.com/a#b",
        "https://example.com/a\\b", "https://example.com/\"x\"", "<all_urls>x", "https://<b>/",
    ])
    func whatNoEditingCanFixIsRefused(partial: String) {
        #expect(!MatchPattern.canBecomeValid(partial), "\(partial)")
    }

    /// A mistake the form explains, often with the pattern meant, is let through to be explained.
    @Test(arguments: ["www.google.*", "nope", "https://example.com", "https://user@example.com/*", "http:/x", "https://example.com/é"])
    func whatTheFormCanExplainIsAccepted(partial: String) throws {
        #expect(MatchPattern.canBecomeValid(partial), "\(partial)")
        #expect(MatchPattern.problem(with: partial) != nil, "\(partial)")
    }

    @Test func aBareHostIsExplainedWithThePatternMeant() throws {
        let problem = try #require(MatchPattern.problem(with: "www.google.*"))
        #expect(problem.contains("Did you mean `*://*.google.com/*`?"), "\(problem)")
    }

    @Test func anIncompletePatternSaysWhatIsMissing() throws {
        let problem = try #require(MatchPattern.problem(with: "https://example.com"))
        #expect(problem.contains("no path"), "\(problem)")
    }
}
