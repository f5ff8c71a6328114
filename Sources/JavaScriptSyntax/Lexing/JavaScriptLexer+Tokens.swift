extension JavaScriptLexer {
    /// Reads the token at `index`, which is not whitespace.
    mutating func scanToken() -> JavaScriptToken {
        let start = index
        let first = text[start]
        switch first {
        case 0x2F: // /
            let following = peek(start + 1)
            if following == 0x2F {
                return makeComment(.lineComment, start: start, position: position(at: start), upTo: lineEnd(from: start + 2))
            }
            if following == 0x2A {
                return scanBlockComment(start: start, bodyStart: start + 2)
            }
            if regularExpressionMayStart, let regularExpression = scanRegularExpression(start: start) {
                return regularExpression
            }
            return scanPunctuator(start: start)
        case 0x3C where peek(start + 1) == 0x21 && peek(start + 2) == 0x2D && peek(start + 3) == 0x2D: // <!--
            return makeComment(.lineComment, start: start, position: position(at: start), upTo: lineEnd(from: start + 4))
        case 0x2D where state.onlyTriviaOnLine && peek(start + 1) == 0x2D && peek(start + 2) == 0x3E: // --> at line start
            return makeComment(.lineComment, start: start, position: position(at: start), upTo: lineEnd(from: start + 3))
        case 0x22, 0x27: // " '
            return scanString(quote: first, start: start, bodyStart: start + 1)
        case 0x60: // `
            let startPosition = position(at: start)
            openContext(.template, at: startPosition)
            return scanTemplateText(start: start, from: start + 1)
        case 0x7D where isInSubstitution: // } closing ${
            closeSubstitution()
            return scanTemplateText(start: start, from: start + 1)
        case 0x30...0x39:
            return scanNumber(start: start)
        case 0x2E where peek(start + 1).map(CodeUnit.isDecimalDigit) == true:
            return scanNumber(start: start)
        case 0x23: // #
            if let name = scanIdentifierName(from: start + 1), name.end > start + 1 {
                return finishOperand(.privateName, start: start, position: position(at: start), end: name.end)
            }
            return scanInvalidCharacter(start: start)
        default:
            if CodeUnit.isASCIIIdentifierStart(first) || first == CodeUnit.backslash {
                return scanWord(start: start)
            }
            if first < 0x80 {
                return scanPunctuator(start: start)
            }
            if let scalar = scalar(at: start), CodeUnit.isIdentifierStart(scalar) {
                return scanWord(start: start)
            }
            return scanInvalidCharacter(start: start)
        }
    }

    private var isInSubstitution: Bool {
        state.innermost.contains(.substitution)
    }

    /// The scalar at `offset`, joining a surrogate pair; `nil` for a lone surrogate.
    func scalar(at offset: Int) -> Unicode.Scalar? {
        let unit = text[offset]
        if UTF16.isLeadSurrogate(unit), offset + 1 < end, UTF16.isTrailSurrogate(text[offset + 1]) {
            return Unicode.Scalar(UInt32(unit - 0xD800) << 10 + UInt32(text[offset + 1] - 0xDC00) + 0x10000)
        }
        return Unicode.Scalar(unit)
    }

    // MARK: - Significant tokens

    /// Makes a token that is not a comment, and moves past it.
    mutating func makeToken(_ kind: JavaScriptToken.Kind, start: Int, position: SourcePosition, end stop: Int, word: Keyword? = nil, punctuator: Punctuator? = nil) -> JavaScriptToken {
        index = stop
        let token = JavaScriptToken(kind: kind, range: start..<stop, start: position, isPrecededByLineBreak: state.lineBreakPending, word: word, punctuator: punctuator)
        state.lineBreakPending = false
        state.onlyTriviaOnLine = false
        return token
    }

    mutating func finishOperand(_ kind: JavaScriptToken.Kind, start: Int, position startPosition: SourcePosition, end stop: Int) -> JavaScriptToken {
        noteOperand(lineBreak: state.lineBreakPending)
        return makeToken(kind, start: start, position: startPosition, end: stop)
    }

    private mutating func scanInvalidCharacter(start: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        let scalarValue = scalar(at: start)
        let width = (scalarValue?.value ?? 0) > 0xFFFF ? 2 : 1
        report(.invalidCharacter, Self.invalidCharacterMessage(scalarValue, unit: text[start]), at: startPosition)
        return makeToken(.invalid, start: start, position: startPosition, end: start + width)
    }

    /// "Invalid character '“' (U+201C LEFT DOUBLE QUOTATION MARK)", with a hint for the
    /// characters that word processors put in code; control and format characters are named,
    /// never shown.
    static func invalidCharacterMessage(_ scalar: Unicode.Scalar?, unit: UInt16) -> String {
        guard let scalar else {
            return "Invalid character: a lone surrogate U+\(hex(UInt32(unit)))"
        }
        let code = "U+" + hex(scalar.value)
        let name = scalar.properties.name.map { " " + $0 } ?? (scalar.properties.generalCategory == .control ? ", a control character" : "")
        let shown: String
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate, .spaceSeparator:
            shown = ""
        default:
            shown = " '\(Character(scalar))'"
        }
        var message = "Invalid character\(shown) (\(code)\(name))"
        switch scalar.value {
        case 0x2018, 0x2019, 0x201C, 0x201D, 0x00AB, 0x00BB:
            message += ": JavaScript quotes strings with straight quotes, \" or '"
        case 0x2013, 0x2014, 0x2212:
            message += ": JavaScript's minus is the ASCII hyphen-minus, -"
        case 0x23:
            message = "Invalid character '#': a private name needs a name after it (#field), and '#!' is only allowed on the first line"
        default:
            break
        }
        return message
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Words

    private mutating func scanWord(start: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        let name = scanIdentifierName(from: start) ?? (end: start + 1, hasEscape: true)
        let word = name.hasEscape ? nil : Keyword.lookUp(text, start..<name.end, in: keywords)
        let kind = noteWord(word, lineBreak: state.lineBreakPending)
        return makeToken(kind, start: start, position: startPosition, end: name.end, word: word)
    }

    /// Reads an IdentifierName from `offset`; `nil` when none starts there. Reports malformed
    /// `\u` escapes, and escapes of characters that cannot be part of a name.
    mutating func scanIdentifierName(from offset: Int) -> (end: Int, hasEscape: Bool)? {
        var cursor = offset
        var hasEscape = false
        while cursor < end {
            let unit = text[cursor]
            let isFirst = cursor == offset
            if unit < 0x80 {
                if isFirst ? CodeUnit.isASCIIIdentifierStart(unit) : CodeUnit.isASCIIIdentifierPart(unit) {
                    cursor += 1
                    continue
                }
                if unit == CodeUnit.backslash {
                    hasEscape = true
                    let escapeStart = cursor
                    guard let escape = readUnicodeEscape(at: cursor) else {
                        report(.invalidEscape, "Invalid Unicode escape sequence", at: position(at: escapeStart))
                        cursor += 1
                        continue
                    }
                    cursor = escape.end
                    let valid = escape.scalar.map { isFirst ? CodeUnit.isIdentifierStart($0) : CodeUnit.isIdentifierPart($0) } ?? false
                    if !valid {
                        report(.invalidEscape, "Invalid Unicode escape sequence: \\u escapes in a name must spell a letter, digit, $ or _", at: position(at: escapeStart))
                    }
                    continue
                }
                break
            }
            guard let scalar = scalar(at: cursor), isFirst ? CodeUnit.isIdentifierStart(scalar) : CodeUnit.isIdentifierPart(scalar) else {
                break
            }
            cursor += scalar.value > 0xFFFF ? 2 : 1
        }
        return cursor > offset ? (cursor, hasEscape) : nil
    }

    /// Reads `\uXXXX` or `\u{X…}` at `offset` (the backslash).
    ///
    /// - Returns: Where the escape ends and the scalar it spells (`nil` for a surrogate code
    ///   point, which names cannot hold); `nil` when the escape is malformed or above U+10FFFF.
    func readUnicodeEscape(at offset: Int) -> (end: Int, scalar: Unicode.Scalar?)? {
        guard peek(offset) == CodeUnit.backslash, peek(offset + 1) == 0x75 else { return nil }
        var cursor = offset + 2
        var value: UInt32 = 0
        if peek(cursor) == 0x7B {
            cursor += 1
            var digits = 0
            while let unit = peek(cursor), let digit = CodeUnit.hexValue(unit) {
                value = value * 16 + digit
                if value > 0x10FFFF { return nil }
                digits += 1
                cursor += 1
            }
            guard digits > 0, peek(cursor) == 0x7D else { return nil }
            return (cursor + 1, Unicode.Scalar(value))
        }
        for _ in 0..<4 {
            guard let unit = peek(cursor), let digit = CodeUnit.hexValue(unit) else { return nil }
            value = value * 16 + digit
            cursor += 1
        }
        return (cursor, Unicode.Scalar(value))
    }

    // MARK: - Strings

    /// Reads a string from `bodyStart` (after the quote, or the start of a line continuing it).
    mutating func scanString(quote: UInt16, start: Int, bodyStart: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        var cursor = bodyStart
        state.continuation = .none
        while cursor < end {
            let unit = text[cursor]
            if unit == quote {
                return finishOperand(.string, start: start, position: startPosition, end: cursor + 1)
            }
            if unit == CodeUnit.backslash {
                guard cursor + 1 < end else {
                    if endsAtLineBreak {
                        let token = finishOperand(.string, start: start, position: startPosition, end: end)
                        state.continuation = .string(quote: quote)
                        return token
                    }
                    break
                }
                cursor = scanStringEscape(at: cursor)
                continue
            }
            if unit == CodeUnit.lineFeed || unit == CodeUnit.carriageReturn {
                report(.unterminatedString, "Unterminated string literal", at: startPosition)
                return finishOperand(.string, start: start, position: startPosition, end: cursor)
            }
            if unit == CodeUnit.lineSeparator || unit == CodeUnit.paragraphSeparator {
                cursor = passLineTerminator(at: cursor)
                continue
            }
            cursor += 1
        }
        report(.unterminatedString, "Unterminated string literal", at: startPosition)
        return finishOperand(.string, start: start, position: startPosition, end: end)
    }

    /// Steps over the escape at `offset` (a backslash followed by at least one unit), reporting
    /// malformed `\x` and `\u` escapes.
    private mutating func scanStringEscape(at offset: Int) -> Int {
        let escaped = text[offset + 1]
        switch escaped {
        case _ where CodeUnit.isLineTerminator(escaped):
            return passLineTerminator(at: offset + 1)
        case 0x78: // x
            guard let first = peek(offset + 2), CodeUnit.isHexDigit(first),
                  let second = peek(offset + 3), CodeUnit.isHexDigit(second) else {
                report(.invalidEscape, "Invalid hexadecimal escape sequence: \\x needs two hexadecimal digits", at: position(at: offset))
                return offset + 2
            }
            return offset + 4
        case 0x75: // u
            if let escape = readUnicodeEscape(at: offset) {
                return escape.end
            }
            if peek(offset + 2) == 0x7B, undefinedCodePointFollows(offset + 3) {
                report(.invalidEscape, "Undefined Unicode code-point: \\u{…} goes up to 10FFFF", at: position(at: offset))
            } else {
                report(.invalidEscape, "Invalid Unicode escape sequence: \\u needs four hexadecimal digits or \\u{…}", at: position(at: offset))
            }
            return offset + 2
        default:
            return offset + 2
        }
    }

    /// Whether hexadecimal digits closed by `}` start at `offset` and spell a value above U+10FFFF.
    private func undefinedCodePointFollows(_ offset: Int) -> Bool {
        var cursor = offset
        while let unit = peek(cursor), CodeUnit.isHexDigit(unit) {
            cursor += 1
        }
        return cursor > offset && peek(cursor) == 0x7D
    }

    // MARK: - Templates

    /// Reads template text from `offset` up to and including the next `${` or closing backtick
    /// (or to the end of the text); the token starts at `start` (the backtick, the `}` that
    /// closed a substitution, or the start of a line inside the template).
    mutating func scanTemplateText(start: Int, from offset: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        var cursor = offset
        while cursor < end {
            let unit = text[cursor]
            if unit == 0x60 {
                closeTemplate()
                return finishOperand(.template, start: start, position: startPosition, end: cursor + 1)
            }
            if unit == 0x24, peek(cursor + 1) == 0x7B {
                let token = makeToken(.template, start: start, position: startPosition, end: cursor + 2)
                openContext(.substitution, at: position(at: cursor))
                return token
            }
            if unit == CodeUnit.backslash, cursor + 1 < end {
                cursor = CodeUnit.isLineTerminator(text[cursor + 1]) ? passLineTerminator(at: cursor + 1) : cursor + 2
                continue
            }
            if CodeUnit.isLineTerminator(unit) {
                cursor = passLineTerminator(at: cursor)
                continue
            }
            cursor += 1
        }
        return makeToken(.template, start: start, position: startPosition, end: end)
    }

    // MARK: - Regular expressions

    var regularExpressionMayStart: Bool {
        let level = state.level
        if level.isMemberName { return false }
        switch level.property {
        case .key, .afterKey: return false
        case .none, .value: break
        }
        switch level.expected {
        case .statement, .expression, .arrowBody, .afterArrowBody, .restricted: return true
        case .operator, .functionBody: return false
        }
    }

    /// Reads a regular expression literal at `start` (its `/`). When it does not end on its line
    /// and the lexer only guessed that one starts here, returns `nil` so that the `/` is read as
    /// a division; when it was certain, reports it.
    private mutating func scanRegularExpression(start: Int) -> JavaScriptToken? {
        var cursor = start + 1
        var inClass = false
        while cursor < end {
            let unit = text[cursor]
            if CodeUnit.isLineTerminator(unit) { break }
            if unit == CodeUnit.backslash {
                cursor += 1
                if cursor < end, !CodeUnit.isLineTerminator(text[cursor]) {
                    cursor += 1
                    continue
                }
                break
            }
            if unit == 0x5B {
                inClass = true
            } else if unit == 0x5D {
                inClass = false
            } else if unit == 0x2F, !inClass {
                cursor += 1
                while cursor < end {
                    if CodeUnit.isASCIIIdentifierPart(text[cursor]) {
                        cursor += 1
                    } else if text[cursor] >= 0x80, let scalar = scalar(at: cursor), CodeUnit.isIdentifierPart(scalar) {
                        cursor += scalar.value > 0xFFFF ? 2 : 1
                    } else {
                        break
                    }
                }
                return finishOperand(.regularExpression, start: start, position: position(at: start), end: cursor)
            }
            cursor += 1
        }
        if state.level.isGuess || state.level.expected == .afterArrowBody {
            return nil
        }
        let startPosition = position(at: start)
        report(.unterminatedRegularExpression, "Unterminated regular expression literal: no closing '/' on this line", at: startPosition)
        return finishOperand(.invalid, start: start, position: startPosition, end: cursor)
    }

    // MARK: - Numbers

    private mutating func scanNumber(start: Int) -> JavaScriptToken {
        var cursor = start
        var mayBeBigInt = true
        let first = text[start]
        let second = peek(start + 1) ?? 0
        if first == 0x30, let radix = Self.radix(prefix: second | 0x20) {
            cursor = start + 2
            let digits = scanDigits(from: cursor, radix: radix)
            cursor = digits.end
            if digits.count == 0 {
                let base = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
                report(.invalidNumber, "Invalid or unexpected token: '0\(Character(Unicode.Scalar(UInt8(second))))' must be followed by \(base) digits", at: position(at: start))
            }
        } else if first == 0x30, CodeUnit.isDecimalDigit(second) || second == 0x5F {
            cursor = scanLegacyOctalLike(start: start)
            mayBeBigInt = false
        } else {
            if first != 0x2E {
                cursor = scanDigits(from: start, radix: 10).end
            }
            if peek(cursor) == 0x2E {
                mayBeBigInt = false
                cursor = scanDigits(from: cursor + 1, radix: 10).end
            }
            cursor = scanExponent(from: cursor, mayBeBigInt: &mayBeBigInt)
        }
        if peek(cursor) == 0x6E { // n
            if mayBeBigInt {
                cursor += 1
            } else {
                report(.invalidNumber, "Invalid BigInt literal: a BigInt (10n) has no fraction, no exponent and no leading zero", at: position(at: cursor))
                cursor += 1
            }
        }
        if let following = peek(cursor), followsNumberIllegally(following, at: cursor) {
            report(.invalidNumber, "Invalid or unexpected token: a number cannot be followed directly by a letter or digit", at: position(at: cursor))
        }
        return finishOperand(.number, start: start, position: position(at: start), end: cursor)
    }

    private static func radix(prefix lowercased: UInt16) -> Int? {
        switch lowercased {
        case 0x78: 16
        case 0x6F: 8
        case 0x62: 2
        default: nil
        }
    }

    private mutating func scanExponent(from offset: Int, mayBeBigInt: inout Bool) -> Int {
        guard let unit = peek(offset), unit | 0x20 == 0x65 else { return offset }
        mayBeBigInt = false
        var cursor = offset + 1
        if let sign = self.peek(cursor), sign == 0x2B || sign == 0x2D {
            cursor += 1
        }
        let digits = scanDigits(from: cursor, radix: 10)
        if digits.count == 0 {
            report(.invalidNumber, "Invalid or unexpected token: the exponent of a number needs digits", at: position(at: offset))
        }
        return digits.end
    }

    /// `017` (legacy octal) or `089` and `08.5` (decimal with a leading zero), which allow
    /// neither separators nor a BigInt suffix.
    private mutating func scanLegacyOctalLike(start: Int) -> Int {
        var cursor = start + 1
        var isOctal = true
        while let unit = peek(cursor) {
            if CodeUnit.isDecimalDigit(unit) {
                if unit >= 0x38 { isOctal = false }
                cursor += 1
            } else if unit == 0x5F {
                let message = cursor == start + 1 ? "Numeric separator can not be used after leading 0" : "Numeric separators are not allowed in numbers that start with 0"
                report(.invalidNumber, message, at: position(at: cursor))
                cursor += 1
            } else {
                break
            }
        }
        if !isOctal {
            if peek(cursor) == 0x2E {
                cursor = scanDigits(from: cursor + 1, radix: 10).end
            }
            var ignored = false
            cursor = scanExponent(from: cursor, mayBeBigInt: &ignored)
        }
        return cursor
    }

    /// Reads digits of `radix` with `_` separators from `offset`, reporting misplaced separators.
    private mutating func scanDigits(from offset: Int, radix: Int) -> (end: Int, count: Int) {
        var cursor = offset
        var count = 0
        var afterSeparator = false
        while let unit = peek(cursor) {
            if let value = CodeUnit.hexValue(unit), value < radix {
                count += 1
                afterSeparator = false
            } else if unit == 0x5F {
                if afterSeparator {
                    report(.invalidNumber, "Only one underscore is allowed as numeric separator", at: position(at: cursor))
                } else if count == 0 {
                    report(.invalidNumber, "Invalid or unexpected token: a numeric separator must come between digits", at: position(at: cursor))
                }
                afterSeparator = true
            } else {
                break
            }
            cursor += 1
        }
        if afterSeparator {
            report(.invalidNumber, "Numeric separators are not allowed at the end of numeric literals", at: position(at: cursor - 1))
        }
        return (cursor, count)
    }

    /// Whether `unit` may not directly follow a numeric literal: a decimal digit or the start of a
    /// name (`3in`, `5.toFixed`, `0b12`).
    private func followsNumberIllegally(_ unit: UInt16, at offset: Int) -> Bool {
        if CodeUnit.isDecimalDigit(unit) || CodeUnit.isASCIIIdentifierStart(unit) || unit == CodeUnit.backslash {
            return true
        }
        if unit >= 0x80, let scalar = scalar(at: offset) {
            return CodeUnit.isIdentifierStart(scalar)
        }
        return false
    }

    // MARK: - Punctuators

    private mutating func scanPunctuator(start: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        guard let (punctuator, length) = readPunctuator(at: start) else {
            return scanInvalidCharacter(start: start)
        }
        let lineBreak = state.lineBreakPending
        let token = makeToken(.punctuator, start: start, position: startPosition, end: start + length, punctuator: punctuator)
        notePunctuator(punctuator, at: startPosition, lineBreak: lineBreak)
        return token
    }

    private func readPunctuator(at offset: Int) -> (Punctuator, Int)? {
        let next = peek(offset + 1) ?? 0
        let afterNext = peek(offset + 2) ?? 0
        switch text[offset] {
        case 0x7B: return (.openBrace, 1)
        case 0x7D: return (.closeBrace, 1)
        case 0x28: return (.openParenthesis, 1)
        case 0x29: return (.closeParenthesis, 1)
        case 0x5B: return (.openBracket, 1)
        case 0x5D: return (.closeBracket, 1)
        case 0x3B: return (.semicolon, 1)
        case 0x2C: return (.comma, 1)
        case 0x7E: return (.tilde, 1)
        case 0x40: return (.at, 1)
        case 0x3A: return (.colon, 1)
        case 0x2E: // .
            return next == 0x2E && afterNext == 0x2E ? (.ellipsis, 3) : (.dot, 1)
        case 0x3F: // ?
            if next == 0x2E, !CodeUnit.isDecimalDigit(afterNext) { return (.optionalChaining, 2) }
            if next == 0x3F { return afterNext == 0x3D ? (.nullishAssign, 3) : (.nullish, 2) }
            return (.questionMark, 1)
        case 0x3C: // <
            if next == 0x3C { return afterNext == 0x3D ? (.shiftLeftAssign, 3) : (.shiftLeft, 2) }
            return next == 0x3D ? (.lessEqual, 2) : (.less, 1)
        case 0x3E: // >
            if next == 0x3E {
                if afterNext == 0x3E { return peek(offset + 3) == 0x3D ? (.unsignedShiftRightAssign, 4) : (.unsignedShiftRight, 3) }
                return afterNext == 0x3D ? (.shiftRightAssign, 3) : (.shiftRight, 2)
            }
            return next == 0x3D ? (.greaterEqual, 2) : (.greater, 1)
        case 0x3D: // =
            if next == 0x3D { return afterNext == 0x3D ? (.strictEqual, 3) : (.equal, 2) }
            return next == 0x3E ? (.arrow, 2) : (.assign, 1)
        case 0x21: // !
            if next == 0x3D { return afterNext == 0x3D ? (.strictNotEqual, 3) : (.notEqual, 2) }
            return (.exclamation, 1)
        case 0x2B: // +
            return next == 0x2B ? (.increment, 2) : next == 0x3D ? (.plusAssign, 2) : (.plus, 1)
        case 0x2D: // -
            return next == 0x2D ? (.decrement, 2) : next == 0x3D ? (.minusAssign, 2) : (.minus, 1)
        case 0x2A: // *
            if next == 0x2A { return afterNext == 0x3D ? (.starStarAssign, 3) : (.starStar, 2) }
            return next == 0x3D ? (.starAssign, 2) : (.star, 1)
        case 0x25: // %
            return next == 0x3D ? (.percentAssign, 2) : (.percent, 1)
        case 0x26: // &
            if next == 0x26 { return afterNext == 0x3D ? (.andAssign, 3) : (.and, 2) }
            return next == 0x3D ? (.ampersandAssign, 2) : (.ampersand, 1)
        case 0x7C: // |
            if next == 0x7C { return afterNext == 0x3D ? (.orAssign, 3) : (.or, 2) }
            return next == 0x3D ? (.barAssign, 2) : (.bar, 1)
        case 0x5E: // ^
            return next == 0x3D ? (.caretAssign, 2) : (.caret, 1)
        case 0x2F: // /
            return next == 0x3D ? (.slashAssign, 2) : (.slash, 1)
        default:
            return nil
        }
    }
}
