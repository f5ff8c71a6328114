import Testing
@testable import UserScripts

struct URLRegexTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let source: String
        let expected: String
        let subject: String
        var testDescription: String { "/\(source)/ on \(subject): \(expected)" }
    }

    static let vectors: [Vector] = RegexVectors.text.split(separator: "\n").map { line in
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        return Vector(source: fields[0], expected: fields[1], subject: fields.count > 2 ? fields[2] : "")
    }

    /// Thousands of random expressions: PageScript's engine (its automaton and its NFA) answers
    /// exactly as V8 does.
    @Test func theEngineAgreesWithV8() throws {
        #expect(Self.vectors.count == 4_000)
        var disagreements: [String] = []
        for vector in Self.vectors {
            let outcome: String
            do {
                let expression = try URLRegex("/\(vector.source)/")
                outcome = expression.matches(vector.subject) ? "MATCH" : "NO"
                if expression.matchesWithoutAutomaton(vector.subject) != expression.matches(vector.subject) {
                    disagreements.append("\(vector.testDescription): the NFA and the automaton differ")
                }
            } catch {
                outcome = error.isInvalid ? "INVALID" : "UNSUPPORTED: \(error.reason)"
            }
            if outcome != vector.expected { disagreements.append("\(vector.testDescription) but PageScript: \(outcome)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(10))")
    }

    @Test(arguments: [
        ("/^https:\\/\\/example\\.com\\//", "https://example.com/a", true),
        ("/^https:\\/\\/example\\.com\\//", "https://EXAMPLE.com/a", true),
        ("/^HTTPS:\\/\\/Example\\.COM\\/Path/", "https://example.com/path", true),
        ("/^https:\\/\\/example\\.com\\/$/", "https://example.com/x", false),
        ("/(a+)+$/", String(repeating: "a", count: 5_000) + "!", false),
        ("/^(?:a|aa)*b/", String(repeating: "a", count: 5_000), false),
        ("/\\bfoo\\b/", "x/foo/y", true),
        ("/\\bfoo\\b/", "xfooy", false),
        ("/^https:\\/\\/a\\.com\\/(?!admin)/", "https://a.com/admin/x", false),
        ("/^https:\\/\\/a\\.com\\/(?!admin)/", "https://a.com/home", true),
        ("/x{2,3}/", "axxa", true),
        ("/[^]/", "", false),
        ("/\\u0041\\x42/", "ab", true),
    ])
    func matchesLikeJavaScript(_ written: String, _ subject: String, _ expected: Bool) throws {
        #expect(try URLRegex(written).matches(subject) == expected)
    }

    @Test(arguments: [
        ("/(?<=a)b/", false, "lookbehind"),
        ("/(a)\\1/", false, "back-references"),
        ("/\\k<name>/", false, "named back-references"),
        ("/abc/u", false, "`u` flag"),
        ("/abc/y", false, "`y` flag"),
        ("/a{1001}/", false, "above 1000"),
        ("/(abc/", true, "never closed"),
        ("/abc)/", true, "without a matching"),
        ("/*a/", true, "nothing before it"),
        ("/[z-a]/", true, "runs backwards"),
        ("/a{3,2}/", true, "out of order"),
        ("/^*/", true, "cannot be repeated"),
    ])
    func whatCannotBeRunSaysWhy(_ written: String, _ isInvalid: Bool, _ fragment: String) {
        let error = #expect(throws: RegexSyntaxError.self) { try URLRegex(written) }
        #expect(error?.isInvalid == isInvalid)
        #expect(error?.reason.contains(fragment) == true, "\(error?.reason ?? "")")
    }

    @Test func flagsThatCannotChangeTheAnswerAreAccepted() throws {
        for flags in ["i", "g", "m", "s", "gi", "dgims"] {
            #expect(try URLRegex("/^https:\\/\\/a\\.com\\//\(flags)").matches("https://a.com/"))
        }
    }
}
