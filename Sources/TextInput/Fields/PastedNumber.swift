/// A number read from pasted or autofilled text, with its formatting taken out.
///
/// Pasted numbers come formatted for people: "1,234", "1.234,50 €", "−12", "1 234 567",
/// "CHF 1'234.50", "१२३". This reader keeps what the number is (sign, digits, where the
/// fraction starts) and drops the rest, or fails when the text is not one number, so that
/// a format can refuse it instead of keeping a fragment.
///
/// Which of "." and "," is the decimal separator: when both appear, the last one; when one of
/// them appears more than once, it groups digits; when one appears once, it is the locale's
/// decimal separator if it is that one, a grouping separator if the digits around it are
/// grouped like thousands ("1,234"), and a decimal separator otherwise ("3,5", "12.50").
struct PastedNumber {
    /// Whether the number carries a minus sign.
    var isNegative = false
    /// The integer digits, most significant first.
    var integerDigits: [UInt8] = []
    /// The fraction digits; `nil` when the number has no decimal separator.
    var fractionDigits: [UInt8]?

    /// Reads a pasted number.
    ///
    /// - Parameters:
    ///   - text: The pasted text.
    ///   - decimalSeparator: The locale's decimal separator read as "." or ","; `nil` when
    ///     the field has no locale (integers), so that only the digits decide.
    init?(_ text: String, decimalSeparator: Unicode.Scalar?) {
        var symbols = text.unicodeScalars.map(NumericSymbol.init).filter { $0 != .currency }
        while let first = symbols.first, first == .space || first == .lineBreak { symbols.removeFirst() }
        while let last = symbols.last, last == .space || last == .lineBreak { symbols.removeLast() }

        switch symbols.first {
        case .minus:
            isNegative = true
            symbols.removeFirst()
        case .plus:
            symbols.removeFirst()
        default:
            break
        }

        // Digit runs and the marks between them: groups[i] follows separators[i - 1].
        var groups: [[UInt8]] = [[]]
        var separators: [NumericSymbol] = []
        for symbol in symbols {
            switch symbol {
            case let .digit(value):
                groups[groups.count - 1].append(value)
            case .separator, .groupingMark, .space:
                // Two marks in a row ("1,,2", "1. 2") are not a formatted number.
                guard !groups[groups.count - 1].isEmpty || groups.count == 1 && separators.isEmpty else { return nil }
                separators.append(symbol)
                groups.append([])
            default:
                return nil
            }
        }
        guard groups.contains(where: { !$0.isEmpty }) else { return nil }

        let decimalIndex = Self.decimalSeparatorIndex(separators: separators, groups: groups, localeSeparator: decimalSeparator)
        let integerGroups = decimalIndex.map { Array(groups[...$0]) } ?? groups
        if let decimalIndex {
            fractionDigits = groups[decimalIndex + 1]
        }
        let groupingMarks = decimalIndex.map { Array(separators[..<$0]) } ?? separators
        guard Self.isGrouping(integerGroups, marks: groupingMarks) else { return nil }
        integerDigits = integerGroups.flatMap { $0 }
    }

    /// Which separator (index into `separators`) starts the fraction, if any.
    private static func decimalSeparatorIndex(
        separators: [NumericSymbol],
        groups: [[UInt8]],
        localeSeparator: Unicode.Scalar?
    ) -> Int? {
        guard let lastIndex = separators.indices.last,
              case let .separator(last) = separators[lastIndex]
        else { return nil }
        let sameKind = separators.filter { $0 == .separator(last) }.count
        let otherKinds = separators.contains { if case let .separator(other) = $0 { other != last } else { false } }
        if otherKinds {
            // Both "." and ",": the last one separates the fraction, if it appears only once.
            return sameKind == 1 ? lastIndex : nil
        }
        if sameKind > 1 {
            return nil
        }
        if last == localeSeparator {
            return lastIndex
        }
        let asGrouping = isGrouping(groups, marks: separators)
        return asGrouping ? nil : lastIndex
    }

    /// Whether digit groups separated by `marks` are grouped like thousands (or like
    /// Indian lakhs: "12,34,567"), all with the same mark.
    private static func isGrouping(_ groups: [[UInt8]], marks: [NumericSymbol]) -> Bool {
        guard groups.count > 1 else { return true }
        guard let mark = marks.first, marks.allSatisfy({ $0 == mark }) else { return false }
        guard let first = groups.first, let last = groups.last,
              (1...3).contains(first.count), first.first != 0, last.count == 3
        else { return false }
        return groups.dropFirst().dropLast().allSatisfy { $0.count == 2 || $0.count == 3 }
    }
}
