import Testing
import JavaScriptSyntax

/// Writes tokens as `kind(text)` separated by spaces, the form the vectors are written in:
/// `n` a name (identifier or keyword), `#` a private name, `p` a punctuator, `num`, `str`, `tpl`
/// (a template piece), `re` a regular expression, `lc` and `bc` comments, `hb` a hashbang,
/// `bad` an invalid token.
enum TokenRendering {
    static func code(_ kind: JavaScriptToken.Kind) -> String {
        switch kind {
        case .identifier, .keyword: "n"
        case .privateName: "#"
        case .punctuator: "p"
        case .number: "num"
        case .string: "str"
        case .template: "tpl"
        case .regularExpression: "re"
        case .lineComment: "lc"
        case .blockComment: "bc"
        case .hashbang: "hb"
        case .invalid: "bad"
        }
    }

    static func render(_ tokens: [JavaScriptToken], in source: String) -> String {
        tokens.map { "\(code($0.kind))(\($0.text(in: source)))" }.joined(separator: " ")
    }

    /// Reads `source` whole and renders its tokens; the lexer's first error, if any, too.
    static func render(_ source: String) -> (tokens: String, error: JavaScriptSyntaxError?) {
        var lexer = JavaScriptLexer(source)
        var tokens: [JavaScriptToken] = []
        while let token = lexer.next() {
            tokens.append(token)
        }
        return (render(tokens, in: source), lexer.firstError)
    }
}

/// A source and what it should give, shown in test names by its source.
struct Vector: Sendable, CustomTestStringConvertible {
    let source: String
    let expected: String

    init(_ source: String, _ expected: String) {
        self.source = source
        self.expected = expected
    }

    var testDescription: String {
        source.debugDescription
    }
}
