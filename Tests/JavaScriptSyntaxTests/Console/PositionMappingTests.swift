import JavaScriptSyntax
import Testing

/// Positions the engine reports in the rewritten body map back to what the user wrote.
struct PositionMappingTests {
    static let sources: [String] = [
        "document.title",
        "let a = {}\na.b.c",
        "x = 1; y = x.z.w",
        "  \t'😀' + missing",
        "{a: 1, b: c.d}",
        "{\n  a: 1,\n  b: c.d } ; x.y",
        "#!/bin/env node\nfoo().bar",
        "a()\r\nb()\r\n",
        "a\u{2028}b.c\u{2029}",
        "if (a) b\n// end",
        "const 𝑥 = 1; 𝑥.y.z",
    ]

    /// Every character the user wrote maps back to itself: in the body it is the same character,
    /// at a position that maps to its position in the source.
    @Test(arguments: sources)
    func everyCharacterOfTheUserMapsBackToItself(_ source: String) throws {
        let rewrite = try ConsoleRewrite(source)
        let bodyPositions = positions(of: rewrite.body)
        let sourceUnits = Array(source.utf16)
        let bodyUnits = Array(rewrite.body.utf16)
        var mappedOffsets: Set<Int> = []
        for (offset, position) in bodyPositions.enumerated() {
            let original = try #require(rewrite.originalPosition(line: position.line, column: position.column))
            guard original.offset < sourceUnits.count, !mappedOffsets.contains(original.offset) else { continue }
            if sourceUnits[original.offset] == bodyUnits[offset] || (bodyUnits[offset] == 0x2F && sourceUnits[original.offset] == 0x23) || (bodyUnits[offset] == 0x2F && sourceUnits[original.offset] == 0x21) {
                #expect(original == positions(of: source)[original.offset])
                mappedOffsets.insert(original.offset)
            }
        }
        #expect(mappedOffsets.count == sourceUnits.count, "every unit of the source is reached")
    }

    @Test
    func anErrorInTheReturnedExpressionPointsAtTheUsersColumn() throws {
        let rewrite = try ConsoleRewrite("let a = {}\na.b.c")
        // The body's line 2 is `return a.b.c`; V8 reports reading `c` of undefined at column 12.
        #expect(rewrite.body == "let a = {}\nreturn a.b.c\n")
        #expect(rewrite.originalPosition(line: 2, column: 12) == SourcePosition(line: 2, column: 5, offset: 15))
        #expect(rewrite.originalPosition(line: 1, column: 5) == SourcePosition(line: 1, column: 5, offset: 4))
    }

    @Test
    func positionsInsideInsertedTextMapToTheStartOfTheStatement() throws {
        let rewrite = try ConsoleRewrite("x = 1\n  y.z")
        let start = SourcePosition(line: 2, column: 3, offset: 8)
        for column in 3...9 {
            #expect(rewrite.originalPosition(line: 2, column: column) == start)
        }
        #expect(rewrite.originalPosition(line: 2, column: 10) == start)
        #expect(rewrite.originalPosition(line: 2, column: 11) == SourcePosition(line: 2, column: 4, offset: 9))
        #expect(rewrite.originalPosition(line: 2, column: 2) == SourcePosition(line: 2, column: 2, offset: 7))
    }

    @Test
    func theParenthesesAroundAnObjectMapToItsStart() throws {
        let rewrite = try ConsoleRewrite("{a: b.c} // x")
        #expect(rewrite.body == "return ({a: b.c}) // x\n")
        let start = SourcePosition(line: 1, column: 1, offset: 0)
        #expect(rewrite.originalPosition(line: 1, column: 8) == start)
        #expect(rewrite.originalPosition(line: 1, column: 9) == start)
        #expect(rewrite.originalPosition(line: 1, column: 13) == SourcePosition(line: 1, column: 5, offset: 4))
        #expect(rewrite.originalPosition(line: 1, column: 17) == start)
        #expect(rewrite.originalPosition(line: 1, column: 19) == SourcePosition(line: 1, column: 10, offset: 9))
    }

    @Test
    func linesOutsideTheBodyMapToNothingAndTheAddedLineToTheEnd() throws {
        let rewrite = try ConsoleRewrite("a\nbc")
        #expect(rewrite.body == "a\nreturn bc\n")
        #expect(rewrite.originalPosition(line: 3, column: 1) == SourcePosition(line: 2, column: 3, offset: 4))
        #expect(rewrite.originalPosition(line: 4, column: 1) == nil)
        #expect(rewrite.originalPosition(line: 0, column: 1) == nil)
        #expect(rewrite.originalPosition(line: 1, column: 0) == nil)
        let ended = try ConsoleRewrite("a\n")
        #expect(ended.originalPosition(line: 2, column: 1) == SourcePosition(line: 2, column: 1, offset: 2))
        #expect(ended.originalPosition(line: 3, column: 1) == nil)
    }

    /// Positions of every UTF-16 unit of `text`, counted as engines count them.
    private func positions(of text: String) -> [SourcePosition] {
        var result: [SourcePosition] = []
        var line = 1
        var lineStart = 0
        let units = Array(text.utf16)
        var index = 0
        while index < units.count {
            result.append(SourcePosition(line: line, column: index - lineStart + 1, offset: index))
            let unit = units[index]
            if unit == 0x0D, index + 1 < units.count, units[index + 1] == 0x0A {
                index += 1
                result.append(SourcePosition(line: line, column: index - lineStart + 1, offset: index))
            }
            index += 1
            if [0x0A, 0x0D, 0x2028, 0x2029].contains(unit) {
                line += 1
                lineStart = index
            }
        }
        return result
    }
}
