import Testing
import UserScripts

/// What a pattern field refuses as it is typed: only what no further typing can make valid.
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
        "ftp", "ftp://example.com/*", "chrome-extension://x/*", "https://exa mple", "https://user@example.com/*",
        "https://a*b.example/*", "https://*example.com/*", "https://example.com/a#b", "https://example.com/a\\b",
        "https://example.com/é", "file://remote/", "http:/x",
    ])
    func whatNoTypingCanFixIsRefused(partial: String) {
        #expect(!MatchPattern.canBecomeValid(partial), "\(partial)")
    }

    @Test func anIncompletePatternSaysWhatIsMissing() throws {
        let problem = try #require(MatchPattern.problem(with: "https://example.com"))
        #expect(problem.contains("no path"), "\(problem)")
    }
}
