import JavaScriptSyntax
import Testing

/// Lines and columns as engines count them: every ECMAScript line terminator starts a line (CR LF
/// once), and columns and offsets count UTF-16 code units.
struct PositionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        /// Line, column and offset of each token that is not a comment.
        let positions: [[Int]]
        var testDescription: String { source.debugDescription }
    }

    static let cases: [Case] = [
        .init(source: "a\nb", positions: [[1, 1, 0], [2, 1, 2]]),
        .init(source: "a\r\nb", positions: [[1, 1, 0], [2, 1, 3]]),
        .init(source: "a\rb", positions: [[1, 1, 0], [2, 1, 2]]),
        .init(source: "a\n\rb", positions: [[1, 1, 0], [3, 1, 3]]),
        .init(source: "a\r\r\nb", positions: [[1, 1, 0], [3, 1, 4]]),
        .init(source: "a\u{2028}b", positions: [[1, 1, 0], [2, 1, 2]]),
        .init(source: "a\u{2029}b", positions: [[1, 1, 0], [2, 1, 2]]),
        .init(source: "  a  b", positions: [[1, 3, 2], [1, 6, 5]]),
        .init(source: "'😀' + x", positions: [[1, 1, 0], [1, 6, 5], [1, 8, 7]]),
        .init(source: "é + 变量 + 𝑥 + y", positions: [[1, 1, 0], [1, 3, 2], [1, 5, 4], [1, 8, 7], [1, 10, 9], [1, 13, 12], [1, 15, 14]]),
        .init(source: "`a\nb${ c }\r\nd` + e", positions: [[1, 1, 0], [2, 5, 7], [2, 7, 9], [3, 4, 15], [3, 6, 17]]),
        .init(source: "'a\\\nb' + c", positions: [[1, 1, 0], [2, 4, 7], [2, 6, 9]]),
        .init(source: "'a\\\r\nb' + c", positions: [[1, 1, 0], [2, 4, 8], [2, 6, 10]]),
        .init(source: "'a\u{2028}b' + c", positions: [[1, 1, 0], [2, 4, 6], [2, 6, 8]]),
        .init(source: "/* 1\n2\r\n3 */ x", positions: [[3, 6, 13]]),
        .init(source: "x // 😀\u{2028}y", positions: [[1, 1, 0], [2, 1, 8]]),
    ]

    @Test(arguments: cases)
    func positionsAreEngineLinesAndUTF16Columns(_ testCase: Case) throws {
        let tokens = try JavaScriptLexer.tokens(in: testCase.source).filter { !$0.isComment }
        #expect(tokens.map { [$0.start.line, $0.start.column, $0.start.offset] } == testCase.positions)
    }

    @Test
    func positionsOrderByOffsetAndDescribeThemselves() {
        let early = SourcePosition(line: 1, column: 9, offset: 8)
        let late = SourcePosition(line: 2, column: 1, offset: 10)
        #expect(early < late)
        #expect(late.description == "line 2, column 1")
    }
}
