import JavaScriptSyntax
import Testing

/// A reserved word is a keyword only where it acts as one: after `.` or `?.`, and as a property
/// name in an object literal or a class body, it is a name. `let` is a keyword where it starts a
/// statement or a `for` header, and a name elsewhere.
struct KeywordClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        /// The kind of each token spelled `word`, in order.
        let word: String
        let kinds: [JavaScriptToken.Kind]
        var testDescription: String { "\(word) in \(source.debugDescription)" }
    }

    static let cases: [Case] = [
        .init(source: "if (a) return b", word: "if", kinds: [.keyword]),
        .init(source: "a.if; a?.if; a.b.if", word: "if", kinds: [.identifier, .identifier, .identifier]),
        .init(source: "x = { if: 1, return() {}, get class() {} }", word: "if", kinds: [.identifier]),
        .init(source: "x = { if: 1, return() {}, get class() {} }", word: "return", kinds: [.identifier]),
        .init(source: "x = { if: 1, return() {}, get class() {} }", word: "class", kinds: [.identifier]),
        .init(source: "class A { delete() {} static new = 1; typeof }", word: "delete", kinds: [.identifier]),
        .init(source: "class A { delete() {} static new = 1; typeof }", word: "new", kinds: [.identifier]),
        .init(source: "class A { delete() {} static new = 1; typeof }", word: "typeof", kinds: [.identifier]),
        .init(source: "x = { a: typeof b }", word: "typeof", kinds: [.keyword]),
        .init(source: "let x = 1; y = let + 1", word: "let", kinds: [.keyword, .identifier]),
        .init(source: "for (let i of a) ;", word: "let", kinds: [.keyword]),
        .init(source: "async function f() { await g() }", word: "await", kinds: [.keyword]),
        .init(source: "async function f() { await g() }", word: "async", kinds: [.identifier]),
        .init(source: "x = this.this", word: "this", kinds: [.keyword, .identifier]),
        .init(source: "true + null + false", word: "null", kinds: [.keyword]),
        .init(source: "for (x of y) ; of = 1", word: "of", kinds: [.identifier, .identifier]),
        .init(source: "\\u0069f = 1", word: "\\u0069f", kinds: [.identifier]),
        .init(source: "class A { static x; static { } }", word: "static", kinds: [.identifier, .identifier]),
    ]

    @Test(arguments: cases)
    func wordsAreKeywordsOnlyWhereTheyActAsOnes(_ testCase: Case) throws {
        let tokens = try JavaScriptLexer.tokens(in: testCase.source)
        let kinds = tokens.filter { $0.text(in: testCase.source) == testCase.word }.map(\.kind)
        #expect(kinds == testCase.kinds)
    }
}
