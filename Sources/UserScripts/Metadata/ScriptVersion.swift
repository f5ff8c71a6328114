/// A script's `@version`, ordered as Tampermonkey orders versions for its update check.
///
/// Tampermonkey's documentation lists versions from lowest to highest (`Alpha-v1 < Alpha-v2 <
/// Alpha-v10 < Beta < 0.5pre3 < 0.5prelimiary < ... < 1.-1 < 1 == 1.0.0 < 1.1a < 1.1aa < 1.1b <
/// 1.1.-1 < 1.1 == 1.1.00 < 1.10.0-alpha < 1.10 < ... < 1.12+1 < 1.12+4 < 1.12 < 2.0 < 16.4 ==
/// 16.04 < 2023-08-17.alpha < 2023-08-17 < 2023-08-17_14-04 < 2023-08-17+alpha`). This ordering
/// reproduces that list:
///
/// 1. The version is split at dots; a missing part counts as `0` (so `1 == 1.0 == 1.0.0`).
/// 2. Each part is a leading whole number (`-1` in `1.-1`; `0` when it starts with no digit)
///    and the text after it. Numbers compare by value (`16.04 == 16.4`, `1.10 > 1.9`).
/// 3. With equal numbers, a part with no text after its number is the higher one (`1.1 > 1.1a`,
///    `1.12 > 1.12+4`, `1.10 > 1.10.0-alpha`); two texts compare as the browsers'
///    `localeCompare` with numeric ordering does: runs of digits by value, punctuation before
///    digits before letters, letters without regard to case (`pre3 < prelimiary`,
///    `pre4 < pre10`, `_ < +`).
///
/// One entry of the documented list contradicts every consistent order: it puts `1.1.1.1.2`
/// below `1.1.1.1`, while the same list has `1.1 == 1.1.0 < 1.1.1.1.1`. Here, as in that rest
/// of the list, a missing part is `0`, so `1.1.1.1 < 1.1.1.1.2`.
///
/// ```swift
/// ScriptVersion("1.10") > ScriptVersion("1.9")          // true
/// ScriptVersion("1.0.0-beta") < ScriptVersion("1.0.0")  // true
/// ```
public struct ScriptVersion: Comparable, Sendable, CustomStringConvertible {
    /// The version as written.
    public let text: String

    /// A version as written after `@version`.
    public init(_ text: String) {
        // Without the leading and trailing spaces and C0 controls a metadata value may carry.
        let scalars = text.unicodeScalars
        if let start = scalars.firstIndex(where: { $0.value > 0x20 }), let end = scalars.lastIndex(where: { $0.value > 0x20 }) {
            self.text = String(scalars[start...end])
        } else {
            self.text = ""
        }
    }

    /// The version as written.
    public var description: String { text }

    public static func == (lhs: ScriptVersion, rhs: ScriptVersion) -> Bool {
        compare(lhs.text, rhs.text) == 0
    }

    public static func < (lhs: ScriptVersion, rhs: ScriptVersion) -> Bool {
        compare(lhs.text, rhs.text) < 0
    }

    /// -1, 0 or 1 as `left` is lower than, equal to or higher than `right`.
    static func compare(_ left: String, _ right: String) -> Int {
        let leftParts = left.split(separator: ".", omittingEmptySubsequences: false).map(Part.init)
        let rightParts = right.split(separator: ".", omittingEmptySubsequences: false).map(Part.init)
        for index in 0..<max(leftParts.count, rightParts.count) {
            let leftPart = index < leftParts.count ? leftParts[index] : Part.zero
            let rightPart = index < rightParts.count ? rightParts[index] : Part.zero
            let order = leftPart.compare(to: rightPart)
            if order != 0 { return order }
        }
        return 0
    }

    /// One dot-separated part: its leading number and the text after it.
    struct Part {
        var isNegative: Bool
        /// The digits of the leading number without leading zeros (empty for zero).
        var digits: Substring
        var rest: Substring

        static let zero = Part(isNegative: false, digits: "", rest: "")

        init(isNegative: Bool, digits: Substring, rest: Substring) {
            self.isNegative = isNegative
            self.digits = digits
            self.rest = rest
        }

        init(_ part: Substring) {
            var index = part.startIndex
            var negative = false
            if part.first == "-", part.dropFirst().first?.isASCIIDigit == true {
                negative = true
                index = part.index(after: index)
            }
            let numberStart = index
            while index < part.endIndex, part[index].isASCIIDigit { index = part.index(after: index) }
            var digits = part[numberStart..<index]
            while digits.first == "0" { digits = digits.dropFirst() }
            self.init(isNegative: negative && !digits.isEmpty, digits: digits, rest: part[index...])
        }

        func compare(to other: Part) -> Int {
            let order = Self.compareNumbers(self, other)
            if order != 0 { return order }
            switch (rest.isEmpty, other.rest.isEmpty) {
            case (true, true): return 0
            case (true, false): return 1
            case (false, true): return -1
            case (false, false): return Self.compareTexts(rest, other.rest)
            }
        }

        static func compareNumbers(_ left: Part, _ right: Part) -> Int {
            if left.isNegative != right.isNegative { return left.isNegative ? -1 : 1 }
            let magnitude = compareDigits(left.digits, right.digits)
            return left.isNegative ? -magnitude : magnitude
        }

        /// Compares two runs of digits without leading zeros by value, at any length.
        static func compareDigits(_ left: Substring, _ right: Substring) -> Int {
            if left.count != right.count { return left.count < right.count ? -1 : 1 }
            if left == right { return 0 }
            return left < right ? -1 : 1
        }

        /// Text after the numbers, compared as `localeCompare` with numeric ordering compares it.
        static func compareTexts(_ left: Substring, _ right: Substring) -> Int {
            let leftTokens = tokens(left)
            let rightTokens = tokens(right)
            for (leftToken, rightToken) in zip(leftTokens, rightTokens) {
                let order = leftToken.compare(to: rightToken)
                if order != 0 { return order }
            }
            if leftTokens.count == rightTokens.count { return 0 }
            return leftTokens.count < rightTokens.count ? -1 : 1
        }

        static func tokens(_ text: Substring) -> [Token] {
            var tokens: [Token] = []
            var index = text.startIndex
            while index < text.endIndex {
                if text[index].isASCIIDigit {
                    let start = index
                    while index < text.endIndex, text[index].isASCIIDigit { index = text.index(after: index) }
                    var digits = text[start..<index]
                    while digits.first == "0" { digits = digits.dropFirst() }
                    tokens.append(.number(digits))
                } else {
                    tokens.append(.character(text[index]))
                    index = text.index(after: index)
                }
            }
            return tokens
        }
    }

    /// A digit run or one other character.
    enum Token {
        case number(Substring)
        case character(Character)

        /// Punctuation and symbols (in the root collation's order) before digits before letters
        /// before everything else.
        static let punctuationOrder = Array("_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$")

        var group: Int {
            switch self {
            case .number: return 2
            case .character(let character):
                if character.isWhitespace { return 0 }
                if Self.punctuationOrder.contains(character) { return 1 }
                if character.isLetter { return 3 }
                return 4
            }
        }

        func compare(to other: Token) -> Int {
            if group != other.group { return group < other.group ? -1 : 1 }
            switch (self, other) {
            case (.number(let left), .number(let right)):
                return Part.compareDigits(left, right)
            case (.character(let left), .character(let right)):
                if group == 1 {
                    let leftRank = Self.punctuationOrder.firstIndex(of: left) ?? 0
                    let rightRank = Self.punctuationOrder.firstIndex(of: right) ?? 0
                    return leftRank == rightRank ? 0 : (leftRank < rightRank ? -1 : 1)
                }
                let leftKey = left.lowercased()
                let rightKey = right.lowercased()
                return leftKey == rightKey ? 0 : (leftKey < rightKey ? -1 : 1)
            default:
                return 0
            }
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
