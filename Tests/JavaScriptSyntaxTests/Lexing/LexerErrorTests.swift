import JavaScriptSyntax
import Testing

/// Errors the lexer is sure of, each at its exact place. Every source here was confirmed to be a
/// SyntaxError in V8 (Node.js 20), both as a script and as the body of an async function; the
/// valid sources below were confirmed to parse.
struct LexerErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let kind: JavaScriptSyntaxError.Kind
        let line: Int
        let column: Int
        /// The start of the message.
        let message: String
        var testDescription: String { source.debugDescription }
    }

    static let cases: [Case] = [
        // Unterminated constructs, reported where they start.
        .init(source: "let s = 'abc", kind: .unterminatedString, line: 1, column: 9, message: "Unterminated string literal"),
        .init(source: "let s = \"abc\nx", kind: .unterminatedString, line: 1, column: 9, message: "Unterminated string literal"),
        .init(source: "x = 'a\\\\\n", kind: .unterminatedString, line: 1, column: 5, message: "Unterminated string literal"),
        .init(source: "x = 'ok'; y = 'bad", kind: .unterminatedString, line: 1, column: 15, message: "Unterminated string literal"),
        .init(source: "`abc", kind: .unterminatedTemplate, line: 1, column: 1, message: "Unterminated template literal"),
        .init(source: "`a${b}c", kind: .unterminatedTemplate, line: 1, column: 1, message: "Unterminated template literal"),
        .init(source: "x = `a${b`", kind: .unterminatedTemplate, line: 1, column: 10, message: "Unterminated template literal"),
        .init(source: "`a${ `b${c}` ", kind: .unexpectedEndOfInput, line: 1, column: 3, message: "Unexpected end of input: '${' is never closed"),
        .init(source: "/* never closed", kind: .unterminatedComment, line: 1, column: 1, message: "Unterminated comment"),
        .init(source: "a /* x\n y", kind: .unterminatedComment, line: 1, column: 3, message: "Unterminated comment"),
        .init(source: "/*/", kind: .unterminatedComment, line: 1, column: 1, message: "Unterminated comment"),
        .init(source: "x = /abc", kind: .unterminatedRegularExpression, line: 1, column: 5, message: "Unterminated regular expression literal"),
        .init(source: "x = /abc\n/", kind: .unterminatedRegularExpression, line: 1, column: 5, message: "Unterminated regular expression literal"),
        .init(source: "x = /[/", kind: .unterminatedRegularExpression, line: 1, column: 5, message: "Unterminated regular expression literal"),
        .init(source: "x = /a\\", kind: .unterminatedRegularExpression, line: 1, column: 5, message: "Unterminated regular expression literal"),
        .init(source: "x = /a/; y = /b", kind: .unterminatedRegularExpression, line: 1, column: 14, message: "Unterminated regular expression literal"),
        // Brackets.
        .init(source: "foo())", kind: .unexpectedToken, line: 1, column: 6, message: "Unexpected token ')': there is no open '('"),
        .init(source: "a }", kind: .unexpectedToken, line: 1, column: 3, message: "Unexpected token '}'"),
        .init(source: "(a]", kind: .unexpectedToken, line: 1, column: 3, message: "Unexpected token ']': expected ')' to close the '(' at line 1, column 1"),
        .init(source: "[a)", kind: .unexpectedToken, line: 1, column: 3, message: "Unexpected token ')': expected ']'"),
        .init(source: "{ a )", kind: .unexpectedToken, line: 1, column: 5, message: "Unexpected token ')': expected '}'"),
        .init(source: "f(a, b;\n}", kind: .unexpectedToken, line: 2, column: 1, message: "Unexpected token '}': expected ')' to close the '(' at line 1, column 2"),
        .init(source: "`${ ) }`", kind: .unexpectedToken, line: 1, column: 5, message: "Unexpected token ')': expected '}' to close the '${'"),
        .init(source: "function f() {\n  if (x) {\n    y()\n}", kind: .unexpectedEndOfInput, line: 1, column: 14, message: "Unexpected end of input: '{' is never closed"),
        .init(source: "(", kind: .unexpectedEndOfInput, line: 1, column: 1, message: "Unexpected end of input: '(' is never closed by ')'"),
        .init(source: "[1, 2", kind: .unexpectedEndOfInput, line: 1, column: 1, message: "Unexpected end of input: '['"),
        .init(source: "x = {", kind: .unexpectedEndOfInput, line: 1, column: 5, message: "Unexpected end of input: '{'"),
        // Characters.
        .init(source: "x = “quoted”", kind: .invalidCharacter, line: 1, column: 5, message: "Invalid character '“' (U+201C LEFT DOUBLE QUOTATION MARK): JavaScript quotes strings with straight quotes"),
        .init(source: "x = ‘a’", kind: .invalidCharacter, line: 1, column: 5, message: "Invalid character '‘' (U+2018"),
        .init(source: "a – b", kind: .invalidCharacter, line: 1, column: 3, message: "Invalid character '–' (U+2013 EN DASH): JavaScript's minus is the ASCII hyphen-minus"),
        .init(source: "a\u{07}b", kind: .invalidCharacter, line: 1, column: 2, message: "Invalid character (U+0007, a control character)"),
        .init(source: "x\u{AD} = 1", kind: .invalidCharacter, line: 1, column: 2, message: "Invalid character (U+00AD SOFT HYPHEN)"),
        .init(source: "x\u{200B}", kind: .invalidCharacter, line: 1, column: 2, message: "Invalid character (U+200B ZERO WIDTH SPACE)"),
        .init(source: "#", kind: .invalidCharacter, line: 1, column: 1, message: "Invalid character '#'"),
        .init(source: "a # b", kind: .invalidCharacter, line: 1, column: 3, message: "Invalid character '#'"),
        .init(source: "😀 = 1", kind: .invalidCharacter, line: 1, column: 1, message: "Invalid character '😀' (U+1F600 GRINNING FACE)"),
        .init(source: "const 😀 = 1", kind: .invalidCharacter, line: 1, column: 7, message: "Invalid character '😀'"),
        // Numbers.
        .init(source: "x = 1_", kind: .invalidNumber, line: 1, column: 6, message: "Numeric separators are not allowed at the end of numeric literals"),
        .init(source: "x = 1_.5", kind: .invalidNumber, line: 1, column: 6, message: "Numeric separators are not allowed at the end of numeric literals"),
        .init(source: "x = 1__0", kind: .invalidNumber, line: 1, column: 7, message: "Only one underscore is allowed as numeric separator"),
        .init(source: "x = 0_1", kind: .invalidNumber, line: 1, column: 6, message: "Numeric separator can not be used after leading 0"),
        .init(source: "x = 09_1", kind: .invalidNumber, line: 1, column: 7, message: "Numeric separators are not allowed in numbers that start with 0"),
        .init(source: "x = 0x_1", kind: .invalidNumber, line: 1, column: 7, message: "Invalid or unexpected token: a numeric separator must come between digits"),
        .init(source: "x = 0x", kind: .invalidNumber, line: 1, column: 5, message: "Invalid or unexpected token: '0x' must be followed by hexadecimal digits"),
        .init(source: "x = 0o8", kind: .invalidNumber, line: 1, column: 5, message: "Invalid or unexpected token: '0o' must be followed by octal digits"),
        .init(source: "x = 0b12", kind: .invalidNumber, line: 1, column: 8, message: "Invalid or unexpected token: a number cannot be followed directly"),
        .init(source: "x = 1e", kind: .invalidNumber, line: 1, column: 6, message: "Invalid or unexpected token: the exponent of a number needs digits"),
        .init(source: "x = 1e+", kind: .invalidNumber, line: 1, column: 6, message: "Invalid or unexpected token: the exponent"),
        .init(source: "x = 08n", kind: .invalidNumber, line: 1, column: 7, message: "Invalid BigInt literal"),
        .init(source: "x = 1.5n", kind: .invalidNumber, line: 1, column: 8, message: "Invalid BigInt literal"),
        .init(source: "x = 1e3n", kind: .invalidNumber, line: 1, column: 8, message: "Invalid BigInt literal"),
        .init(source: "x = 5.toFixed(2)", kind: .invalidNumber, line: 1, column: 7, message: "Invalid or unexpected token: a number cannot be followed directly by a letter or digit"),
        .init(source: "x = 3in y", kind: .invalidNumber, line: 1, column: 6, message: "Invalid or unexpected token"),
        // Escapes.
        .init(source: "'\\x4'", kind: .invalidEscape, line: 1, column: 2, message: "Invalid hexadecimal escape sequence"),
        .init(source: "'\\xZZ'", kind: .invalidEscape, line: 1, column: 2, message: "Invalid hexadecimal escape sequence"),
        .init(source: "'\\u12'", kind: .invalidEscape, line: 1, column: 2, message: "Invalid Unicode escape sequence"),
        .init(source: "'\\u{}'", kind: .invalidEscape, line: 1, column: 2, message: "Invalid Unicode escape sequence"),
        .init(source: "'\\u{110000}'", kind: .invalidEscape, line: 1, column: 2, message: "Undefined Unicode code-point"),
        .init(source: "\\u00", kind: .invalidEscape, line: 1, column: 1, message: "Invalid Unicode escape sequence"),
        .init(source: "a\\u0020b", kind: .invalidEscape, line: 1, column: 2, message: "Invalid Unicode escape sequence: \\u escapes in a name"),
        .init(source: "\\u0030abc", kind: .invalidEscape, line: 1, column: 1, message: "Invalid Unicode escape sequence"),
        // Positions after astral characters and with every kind of line break.
        .init(source: "𝑥 = '😀\n", kind: .unterminatedString, line: 1, column: 6, message: "Unterminated string literal"),
        .init(source: "s = '😀😀' + 'x", kind: .unterminatedString, line: 1, column: 14, message: "Unterminated string literal"),
        .init(source: "a\r\nb = 'c\r\nd'", kind: .unterminatedString, line: 2, column: 5, message: "Unterminated string literal"),
        .init(source: "a\rb\rc = 'd", kind: .unterminatedString, line: 3, column: 5, message: "Unterminated string literal"),
        .init(source: "a\u{2028}b = 'c", kind: .unterminatedString, line: 2, column: 5, message: "Unterminated string literal"),
        .init(source: "a\u{2029}\u{2029}b = 'c", kind: .unterminatedString, line: 3, column: 5, message: "Unterminated string literal"),
        .init(source: "s = 'a\u{2028}b\u{2029}c' + 'd", kind: .unterminatedString, line: 3, column: 6, message: "Unterminated string literal"),
        .init(source: "t = `😀\n😀` + “", kind: .invalidCharacter, line: 2, column: 7, message: "Invalid character '“'"),
        .init(source: "/* 😀\r\n */ x = /y", kind: .unterminatedRegularExpression, line: 2, column: 9, message: "Unterminated regular expression literal"),
    ]

    @Test(arguments: cases)
    func reportsTheErrorWhereItIs(_ testCase: Case) throws {
        #expect(throws: JavaScriptSyntaxError.self) { try JavaScriptLexer.tokens(in: testCase.source) }
        var lexer = JavaScriptLexer(testCase.source)
        while lexer.next() != nil {}
        let error = try #require(lexer.firstError)
        #expect(error.kind == testCase.kind)
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
        #expect(error.message.hasPrefix(testCase.message), "\(error.message)")
        #expect(error.description == "SyntaxError: \(error.message) (line \(testCase.line), column \(testCase.column))")
    }

    /// Valid code that looks like an error to a careless reader.
    @Test(arguments: [
        "a\n-->x", "-->x", "/[/]/", "'\\u2028'", "'a\u{2028}b'", "x = a?.5:b", "1..toString()", "08.5", "017", "'\\8'", "<!-- x",
        "x = (a) / 2", "x = a\n/b/g", "`${`${`${1}`}`}`", "x = {}\n/1/1", "x = y /= 2", "x = '\\x41'", "x = '\\u{10FFFF}'",
        "x = 1 // “curly” in a comment", "x = '“curly” in a string'", "x = `“`", "/“/", "/* ‘ */", "ꟊ = 1",
        "a\u{A0}= 1", "\u{FEFF}x = 1", "a\u{3000}=\u{3000}1", "x\u{200C}y = x\u{200D}y", "tag`\\unicode`", "`a\n\r\n\u{2028}b`",
        "'a\\\r\nb'", "x = /[\\]/]/", "#!/usr/bin/env node\nx",
        "x = { if: 1 }.if", "a?.[b]?.(c)", "0b1_0n + 0o7_7n + 0xF_Fn", "x = `${'}'}`", "function f() { return /}/ }",
    ])
    func acceptsValidCode(_ source: String) throws {
        _ = try JavaScriptLexer.tokens(in: source)
    }

    /// Not valid in Node.js 20, but refusing it would be wrong: decorators are coming to engines,
    /// an untagged template's invalid escape is the parser's to judge (a tagged one is valid), and
    /// a byte order mark before `#!` is what an editor may leave in a file.
    @Test(arguments: ["@dec class A {}", "class A { @dec m() {} }", "`\\u{}`", "\u{FEFF}#!/usr/bin/env node\nx"])
    func leavesToTheEngineWhatItCannotBeSureOf(_ source: String) throws {
        _ = try JavaScriptLexer.tokens(in: source)
    }

    @Test
    func readingGoesOnAfterAnError() {
        var lexer = JavaScriptLexer("a = “b” + 1")
        var kinds: [JavaScriptToken.Kind] = []
        while let token = lexer.next() {
            kinds.append(token.kind)
        }
        #expect(kinds == [.identifier, .punctuator, .invalid, .identifier, .invalid, .punctuator, .number])
        #expect(lexer.firstError?.column == 5)
    }
}
