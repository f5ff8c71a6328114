import JavaScriptSyntax

/// Colours one line of the document with `JavaScriptSyntax`'s lexer, the one JavaScript lexer
/// in the package.
///
/// The lexer reads UTF-16 and reports UTF-16 ranges; the editor's lines are arrays of grapheme
/// clusters. For a line of ASCII the two coincide; otherwise the ranges are converted through the
/// line's UTF-16 offsets.
enum LineTokenizer {
    /// The names the lexer reads as identifiers that the editor colours as literals.
    private static let literalNames: [[Character]] = [Array("undefined"), Array("NaN"), Array("Infinity")]
    /// The keywords the editor colours as literals.
    private static let literalKeywords: [[Character]] = [Array("true"), Array("false"), Array("null")]

    /// The coloured spans of `line` read from `state`, and the state at its end.
    static func tokenize(_ line: [Character], from state: LexerState) -> (tokens: [SyntaxToken], end: LexerState) {
        let text = string(of: line)
        let result = JavaScriptLexer.tokens(inLine: text, startingIn: state)
        guard !result.tokens.isEmpty else { return ([], result.endState) }
        let isASCII = text.utf8.count == line.count && text.utf16.count == line.count
        let offsets = isASCII ? [] : utf16Offsets(of: line)
        var tokens: [SyntaxToken] = []
        tokens.reserveCapacity(result.tokens.count)
        for token in result.tokens {
            let range = isASCII ? token.range : characterRange(token.range, offsets: offsets)
            guard !range.isEmpty else { continue }
            let kind = kind(of: token, characters: line[range])
            guard kind != .plain else { continue }
            if let last = tokens.last, last.kind == kind, last.range.upperBound == range.lowerBound {
                tokens[tokens.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                tokens.append(SyntaxToken(kind: kind, range: range))
            }
        }
        return (tokens, result.endState)
    }

    /// Only the state at the end of `line`, for learning the states of lines not drawn.
    static func endState(of line: [Character], from state: LexerState) -> LexerState {
        JavaScriptLexer.tokens(inLine: string(of: line), startingIn: state).endState
    }

    /// The line as a string, made from its UTF-8 bytes in one go: appending `Character`s one by
    /// one cost more than lexing the line.
    static func string(of line: [Character]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count)
        for character in line {
            if let byte = character.singleByte {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: character.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func kind(of token: JavaScriptToken, characters: ArraySlice<Character>) -> SyntaxKind {
        switch token.kind {
        case .keyword:
            return isOne(of: literalKeywords, characters) ? .literal : .keyword
        case .identifier:
            return isOne(of: literalNames, characters) ? .literal : .plain
        case .privateName, .punctuator: return .plain
        case .number: return .number
        case .string: return .string
        case .template: return .template
        case .regularExpression: return .regex
        case .lineComment, .blockComment, .hashbang: return .comment
        case .invalid: return .invalid
        }
    }

    /// Whether `characters` spell one of `names`, compared without making a string per token
    /// (most tokens differ from every name in length and cost one comparison).
    private static func isOne(of names: [[Character]], _ characters: ArraySlice<Character>) -> Bool {
        names.contains { $0.count == characters.count && $0.elementsEqual(characters) }
    }

    /// `offsets[i]` is the UTF-16 offset where character `i` starts; the last element is the
    /// line's UTF-16 length.
    private static func utf16Offsets(of line: [Character]) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(line.count + 1)
        var offset = 0
        for character in line {
            offsets.append(offset)
            offset += character.utf16.count
        }
        offsets.append(offset)
        return offsets
    }

    /// The characters a UTF-16 range covers (a range that starts or ends inside a character
    /// covers all of it).
    private static func characterRange(_ range: Range<Int>, offsets: [Int]) -> Range<Int> {
        let count = offsets.count - 1
        let lower = index(containing: range.lowerBound, offsets: offsets)
        var upper = index(containing: range.upperBound, offsets: offsets)
        if upper < count, offsets[upper] < range.upperBound { upper += 1 }
        return min(lower, count)..<min(max(lower, upper), count)
    }

    /// The index of the character that contains UTF-16 offset `offset` (binary search).
    private static func index(containing offset: Int, offsets: [Int]) -> Int {
        offsets.indexOfStart(holding: offset)
    }
}
