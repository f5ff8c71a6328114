/// Whether a partly typed integer can still become a value inside a range.
///
/// Typing more means inserting digits anywhere (the caret can move) and a minus sign in front.
/// Inserting digits never makes a magnitude smaller, and leading zeros are free, so a text
/// can be completed exactly when some magnitude in the allowed interval has the typed
/// digits, without their leading zeros, as a subsequence of its decimal digits. That is
/// decided digit by digit between the interval's bounds, in time proportional to the number
/// of digits (at most 20), never by enumerating values.
enum IntegerRangeCompletion {
    /// Whether `digits` (significant, no leading zero) can be completed to a magnitude
    /// in `lower...upper`.
    static func canComplete(_ digits: ArraySlice<UInt8>, magnitudesIn lower: UInt64, _ upper: UInt64) -> Bool {
        guard lower <= upper else { return false }
        guard !digits.isEmpty else { return true }
        let pattern = Array(digits)
        let upperDigits = decimalDigits(of: upper)
        guard pattern.count <= upperDigits.count else { return false }
        // Values of each length are searched separately, so that the lower and upper bounds
        // have as many digits as the candidates and can be compared digit by digit.
        for length in pattern.count...upperDigits.count {
            let smallest = length == 1 ? UInt64(1) : power(of: length - 1)
            let largest = length == upperDigits.count ? upper : power(of: length) - 1
            let low = max(lower, smallest)
            guard low <= largest else { continue }
            let search = Search(pattern: pattern, lower: decimalDigits(of: low), upper: decimalDigits(of: largest))
            if search.exists(at: 0, matched: 0, atLower: true, atUpper: true) {
                return true
            }
        }
        return false
    }

    /// A search for a number of fixed length between two bounds that contains a pattern.
    private struct Search {
        let pattern: [UInt8]
        let lower: [UInt8]
        let upper: [UInt8]

        /// Whether digits from `position` on can be chosen so that the number stays between
        /// the bounds and the rest of the pattern (from `matched`) appears in order.
        ///
        /// Matching each pattern digit at its first chance is optimal for subsequences, so the
        /// state is just the position, the matched count and whether the digits so far equal
        /// a bound. Away from both bounds every digit is free, which answers at once; only the
        /// two paths along the bounds are followed, so the work is linear in the length.
        func exists(at position: Int, matched: Int, atLower: Bool, atUpper: Bool) -> Bool {
            if matched == pattern.count { return true }
            let remaining = lower.count - position
            if remaining < pattern.count - matched { return false }
            if !atLower && !atUpper { return true }
            let first = atLower ? lower[position] : 0
            let last = atUpper ? upper[position] : 9
            guard first <= last else { return false }
            for digit in first...last {
                let nextMatched = digit == pattern[matched] ? matched + 1 : matched
                if exists(
                    at: position + 1,
                    matched: nextMatched,
                    atLower: atLower && digit == first,
                    atUpper: atUpper && digit == last
                ) {
                    return true
                }
            }
            return false
        }
    }

    private static func decimalDigits(of value: UInt64) -> [UInt8] {
        if value == 0 { return [0] }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(rest % 10))
            rest /= 10
        }
        return digits.reversed()
    }

    /// 10 to the power `exponent`, for exponents up to 19 (the largest that fits in UInt64).
    private static func power(of exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent {
            result *= 10
        }
        return result
    }
}
