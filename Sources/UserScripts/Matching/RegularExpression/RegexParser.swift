/// Reads a regular expression's source as JavaScript does without the `u` flag, Annex B included
/// (`]`, `{` and `}` may stand for themselves; `\a` is `a`), always case-insensitive.
struct RegexParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    /// The largest number a `{n,m}` may name; real URL rules stay far below it.
    static let largestRepeatCount = 1_000

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    static func parse(_ source: String) throws(RegexSyntaxError) -> RegexNode {
        var parser = RegexParser(source)
        let node = try parser.disjunction()
        if parser.index < parser.scalars.count {
            // Only an unbalanced `)` stops a disjunction before the end.
            throw .invalid("it has a `)` without a matching `(`")
        }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() -> Unicode.Scalar {
        defer { index += 1 }
        return scalars[index]
    }

    private mutating func disjunction() throws(RegexSyntaxError) -> RegexNode {
        var alternatives = [try alternative()]
        while peek == "|" {
            index += 1
            alternatives.append(try alternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func alternative() throws(RegexSyntaxError) -> RegexNode {
        var terms: [RegexNode] = []
        while let next = peek, next != "|", next != ")" {
            terms.append(try term())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private mutating func term() throws(RegexSyntaxError) -> RegexNode {
        switch peek {
        case "^":
            index += 1
            return try refusingQuantifier(.assertion(.start))
        case "$":
            index += 1
            return try refusingQuantifier(.assertion(.end))
        case "\\" where peek(1) == "b":
            index += 2
            return try refusingQuantifier(.assertion(.wordBoundary))
        case "\\" where peek(1) == "B":
            index += 2
            return try refusingQuantifier(.assertion(.notWordBoundary))
        case "(" where peek(1) == "?" && (peek(2) == "=" || peek(2) == "!"):
            let negated = peek(2) == "!"
            index += 3
            let body = try disjunction()
            try expectClosingParenthesis()
            let node = RegexNode.lookahead(body, negated: negated)
            // Annex B lets a lookahead be quantified: optional means it may be skipped.
            if let (minimum, _) = try quantifier() { return minimum == 0 ? .empty : node }
            return node
        case "(" where peek(1) == "?" && peek(2) == "<" && (peek(3) == "=" || peek(3) == "!"):
            throw .unsupported("lookbehind (`(?<=` or `(?<!`) is not supported")
        default:
            let atom = try atom()
            guard let (minimum, maximum) = try quantifier() else { return atom }
            return .repetition(atom, minimum: minimum, maximum: maximum)
        }
    }

    private mutating func refusingQuantifier(_ node: RegexNode) throws(RegexSyntaxError) -> RegexNode {
        if try quantifier() != nil { throw .invalid("an assertion such as `^`, `$` or `\\b` cannot be repeated") }
        return node
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`, each optionally lazy; `nil` when none follows (a
    /// `{` that does not form one is left to be read as a character).
    private mutating func quantifier() throws(RegexSyntaxError) -> (Int, Int?)? {
        let bounds: (Int, Int?)
        switch peek {
        case "*": index += 1; bounds = (0, nil)
        case "+": index += 1; bounds = (1, nil)
        case "?": index += 1; bounds = (0, 1)
        case "{":
            guard let (braced, length) = bracedQuantifier(at: index) else { return nil }
            index += length
            bounds = braced
        default:
            return nil
        }
        if peek == "?" { index += 1 }
        if let maximum = bounds.1, maximum < bounds.0 {
            throw .invalid("`{\(bounds.0),\(maximum)}` has its numbers out of order")
        }
        if bounds.0 > Self.largestRepeatCount || (bounds.1 ?? 0) > Self.largestRepeatCount {
            throw .unsupported("a repetition count above \(Self.largestRepeatCount) is not supported")
        }
        return bounds
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at `start` without consuming it: the bounds and the length.
    private func bracedQuantifier(at start: Int) -> ((Int, Int?), Int)? {
        var position = start + 1
        func number() -> Int? {
            var value: Int?
            while position < scalars.count, let digit = Self.decimalValue(scalars[position]) {
                value = min((value ?? 0) * 10 + digit, Int(Int32.max))
                position += 1
            }
            return value
        }
        guard let minimum = number() else { return nil }
        var maximum: Int? = minimum
        if position < scalars.count, scalars[position] == "," {
            position += 1
            maximum = number()
        }
        guard position < scalars.count, scalars[position] == "}" else { return nil }
        return ((minimum, maximum), position + 1 - start)
    }

    private mutating func atom() throws(RegexSyntaxError) -> RegexNode {
        guard let scalar = peek else { throw .invalid("it ends unexpectedly") }
        switch scalar {
        case ".":
            index += 1
            return .characters(.notLineTerminator)
        case "(":
            index += 1
            if peek == "?" {
                if peek(1) == ":" {
                    index += 2
                } else if peek(1) == "<" {
                    index += 2
                    guard let close = scalars[index...].firstIndex(of: ">"), close > index else {
                        throw .invalid("a named group `(?<name>` has no name")
                    }
                    index = close + 1
                } else {
                    throw .invalid("`(?` must be followed by `:`, `=`, `!` or `<name>`")
                }
            }
            let body = try disjunction()
            try expectClosingParenthesis()
            return .group(body)
        case "[":
            return try characterClass()
        case "\\":
            index += 1
            return try atomEscape()
        case "*", "+", "?":
            throw .invalid("`\(scalar)` has nothing before it to repeat")
        case "{" where bracedQuantifier(at: index) != nil:
            throw .invalid("`{` starts a repetition with nothing before it to repeat")
        default:
            index += 1
            return .characters(Self.folded(ASCIISet(codePoint: scalar.value)))
        }
    }

    private mutating func expectClosingParenthesis() throws(RegexSyntaxError) {
        guard peek == ")" else { throw .invalid("a `(` is never closed") }
        index += 1
    }

    private mutating func atomEscape() throws(RegexSyntaxError) -> RegexNode {
        guard let scalar = peek else { throw .invalid("it ends with a lone `\\`") }
        switch scalar {
        case "1"..."9":
            throw .unsupported("back-references such as `\\\(scalar)` are not supported")
        case "0" where peek(1).map { ("0"..."9").contains($0) } ?? false:
            throw .unsupported("legacy octal escapes such as `\\01` are not supported")
        case "k":
            throw .unsupported("named back-references (`\\k<name>`) are not supported")
        default:
            return .characters(Self.folded(try escapedSet(inClass: false)))
        }
    }

    /// What an escape stands for, after its `\`: a class (`\d`) or one character.
    private mutating func escapedSet(inClass: Bool) throws(RegexSyntaxError) -> ASCIISet {
        let scalar = advance()
        switch scalar {
        case "d": return .digits
        case "D": return ASCIISet.digits.inverted
        case "w": return .wordCharacters
        case "W": return ASCIISet.wordCharacters.inverted
        case "s": return .whitespace
        case "S": return ASCIISet.whitespace.inverted
        default: return ASCIISet(codePoint: escapedCharacter(scalar, inClass: inClass))
        }
    }

    /// The character an escape of one character stands for (`\n`, `\x41`, `\/`, `\.`).
    private mutating func escapedCharacter(_ scalar: Unicode.Scalar, inClass: Bool) -> UInt32 {
        switch scalar {
        case "t": return 0x09
        case "n": return 0x0A
        case "v": return 0x0B
        case "f": return 0x0C
        case "r": return 0x0D
        case "b" where inClass: return 0x08
        case "0" where !(peek.map { Self.decimalValue($0) != nil } ?? false): return 0
        case "0"..."7" where inClass:
            // Annex B: a legacy octal escape, inside a class only here (outside it `\1` is refused).
            var value = UInt32(scalar.value - 0x30)
            while value < 32, let next = peek, ("0"..."7").contains(next) {
                value = value * 8 + (next.value - 0x30)
                index += 1
            }
            return value
        case "c":
            if let letter = peek, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) {
                index += 1
                return letter.value % 32
            }
            // Annex B: `\c` without a letter is a backslash followed by `c`.
            index -= 1
            return 0x5C
        case "x":
            if let high = peek.flatMap(Self.hexValue), let low = peek(1).flatMap(Self.hexValue) {
                index += 2
                return UInt32(high * 16 + low)
            }
            return scalar.value
        case "u":
            let digits = (0..<4).compactMap { peek($0).flatMap(Self.hexValue) }
            guard digits.count == 4 else { return scalar.value }
            index += 4
            return UInt32(digits.reduce(0) { $0 * 16 + $1 })
        default:
            return scalar.value
        }
    }

    private enum ClassAtom {
        case character(UInt32)
        case set(ASCIISet)
    }

    private mutating func characterClass() throws(RegexSyntaxError) -> RegexNode {
        index += 1
        let negated = peek == "^"
        if negated { index += 1 }
        var set = ASCIISet()
        while true {
            guard let scalar = peek else { throw .invalid("a `[` is never closed") }
            if scalar == "]" {
                index += 1
                break
            }
            let first = try classAtom()
            if peek == "-", let after = peek(1), after != "]" {
                index += 1
                let second = try classAtom()
                switch (first, second) {
                case (.character(let lower), .character(let upper)):
                    guard lower <= upper else { throw .invalid("a range in `[...]` runs backwards") }
                    set = set.union(ASCIISet(range: lower, upper))
                case (.set, _), (_, .set):
                    // Annex B: `[\d-z]` is `\d`, `-` and `z`.
                    set = set.union(Self.set(of: first)).union(ASCIISet(UInt8(ascii: "-"))).union(Self.set(of: second))
                }
            } else {
                set = set.union(Self.set(of: first))
            }
        }
        let folded = Self.folded(set)
        return .characters(negated ? folded.inverted : folded)
    }

    private mutating func classAtom() throws(RegexSyntaxError) -> ClassAtom {
        let scalar = advance()
        guard scalar == "\\" else { return .character(scalar.value) }
        guard let escaped = peek else { throw .invalid("it ends with a lone `\\`") }
        switch escaped {
        case "d", "D", "w", "W", "s", "S":
            return .set(try escapedSet(inClass: true))
        default:
            index += 1
            return .character(escapedCharacter(escaped, inClass: true))
        }
    }

    private static func set(of atom: ClassAtom) -> ASCIISet {
        switch atom {
        case .character(let value): ASCIISet(codePoint: value)
        case .set(let set): set
        }
    }

    /// The managers always match rules case-insensitively; for ASCII that is the other case of
    /// each letter (a non-ASCII character never folds to ASCII without the `u` flag).
    private static func folded(_ set: ASCIISet) -> ASCIISet {
        set.caseFolded
    }

    private static func decimalValue(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value - 0x30) : nil
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> Int? {
        scalar.isASCII ? UInt8(scalar.value).hexDigitValue : nil
    }
}

extension ASCIISet {
    /// One character: its byte when it is ASCII, else the empty set (it can never match a URL).
    init(codePoint: UInt32) {
        self.init()
        if codePoint < 128 { insert(UInt8(codePoint)) }
    }
}
