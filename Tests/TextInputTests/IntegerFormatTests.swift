import Foundation
import Testing
import TextInput

struct IntegerFormatTests {
    static let typing: [EditVector] = [
        EditVector("|", "5", "5"),
        EditVector("1|", "2", "12"),
        EditVector("|", "-", "-"),
        EditVector("-|", "0", "-0"),
        EditVector("|", "x", nil),
        EditVector("1|", ".", nil),
        EditVector("1|", ",", nil),
        EditVector("|", " ", nil),
        EditVector("|", "👍", nil),
        EditVector("1|2", "-", nil),
        EditVector("|12", "-", "-12"),
        EditVector("-|12", "-", nil),
        EditVector("|-12", "-", nil),
        EditVector("|", "٣", "3"),
        EditVector("1|", "５", "15"),
        EditVector("|", "−", "-"),
        // The lone zero of an empty non-optional field gives way to the digits typed after it.
        EditVector("0|", "7", "7"),
        EditVector("-0|", "7", "-7"),
        EditVector("|0", "7", "70"),
        EditVector("0|", "0", "0"),
        EditVector("00|", "7", "007"),
        EditVector("1|", "1️⃣", nil),
    ]

    static let overflow: [EditVector] = [
        EditVector("922337203685477580|", "7", "9223372036854775807"),
        EditVector("922337203685477580|", "8", nil),
        EditVector("-922337203685477580|", "8", "-9223372036854775808"),
        EditVector("-922337203685477580|", "9", nil),
        EditVector("9223372036854775807|", "0", nil),
        EditVector("|9223372036854775807", "1", nil),
        EditVector("|9223372036854775807", "0", "09223372036854775807"),
        EditVector("|", "99999999999999999999", nil),
        EditVector("|", "9,223,372,036,854,775,807", "9223372036854775807"),
    ]

    static let editing: [EditVector] = [
        EditVector("1[2]3", "", "13"),
        EditVector("[123]", "", ""),
        EditVector("-[1]", "", "-"),
        EditVector("[-]1", "", "1"),
        EditVector("1[23]4", "9", "194"),
        EditVector("[1234]", "5", "5"),
        EditVector("1[23]4", "-", nil),
        EditVector("12|34", "56", "125634"),
    ]

    static let paste: [EditVector] = [
        EditVector("|", "1,234", "1234"),
        EditVector("|", "1.234.567", "1234567"),
        EditVector("|", "1 234", "1234"),
        EditVector("|", "12\u{202F}345", "12345"),
        EditVector("|", "12,34,567", "1234567"),
        EditVector("|", "1'234", "1234"),
        EditVector("|", "12.00", "12"),
        EditVector("|", "12.50", nil),
        EditVector("|", "0,500", nil),
        EditVector("|", "1,2345", nil),
        EditVector("|", "1,,234", nil),
        EditVector("|", "1,234.567", nil),
        EditVector("|", "4 2", nil),
        EditVector("|", "abc", nil),
        EditVector("|", "12a", nil),
        EditVector("|", "-42", "-42"),
        EditVector("|", "+42", "42"),
        EditVector("|", "−42", "-42"),
        EditVector("|", "$1,234", "1234"),
        EditVector("|", " 42\n", "42"),
        EditVector("|", "٤٢", "42"),
        EditVector("|", "४२", "42"),
        EditVector("1|", "23", "123"),
        EditVector("|5", "-1", "-15"),
        EditVector("5|", "-1", nil),
        EditVector("[42]", " ", nil),
    ]

    @Test(arguments: typing + overflow + editing + paste)
    func unlimited(_ vector: EditVector) {
        #expect(IntegerFormat().applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let oneToSixHundred: [EditVector] = [
        EditVector("|", "0", "0"),
        EditVector("|", "7", "7"),
        EditVector("7|", "0", "70"),
        EditVector("70|", "0", nil),
        EditVector("60|", "0", "600"),
        EditVector("60|", "1", nil),
        EditVector("|", "-", nil),
        EditVector("|5", "-", nil),
        EditVector("|", "601", nil),
        EditVector("|", "1,234", nil),
        EditVector("|", "450", "450"),
        EditVector("6|", "5", "65"),
        EditVector("[450]", "", ""),
        EditVector("4[5]0", "", "40"),
    ]

    @Test(arguments: oneToSixHundred)
    func rangeOneToSixHundred(_ vector: EditVector) {
        #expect(IntegerFormat(range: 1...600).applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let rangeVectors: [(ClosedRange<Int>, EditVector)] = [
        (100...105, EditVector("|", "7", nil)),
        (100...105, EditVector("|", "5", "5")),
        (100...105, EditVector("|", "0", "0")),
        (100...105, EditVector("1|", "1", "11")),
        (100...105, EditVector("1|", "6", nil)),
        (-50...(-10), EditVector("|", "-", "-")),
        (-50...(-10), EditVector("-|", "5", "-5")),
        (-50...(-10), EditVector("-|", "6", "-6")),
        (-50...(-10), EditVector("-5|", "1", nil)),
        (-50...(-10), EditVector("|", "5", "5")),
        (-50...(-10), EditVector("|", "6", "6")),
        (-50...(-10), EditVector("|", "60", nil)),
        (-5...5, EditVector("-|", "6", nil)),
        (-5...5, EditVector("|", "6", nil)),
        (-5...5, EditVector("-|", "5", "-5")),
        (0...0, EditVector("|", "0", "0")),
        (0...0, EditVector("|", "1", nil)),
        (0...0, EditVector("|", "-", nil)),
        (Int.min...Int.max, EditVector("-922337203685477580|", "8", "-9223372036854775808")),
        (Int.min...Int.max, EditVector("922337203685477580|", "8", nil)),
        (Int.max...Int.max, EditVector("|", "7", "7")),
        (Int.max...Int.max, EditVector("|", "1", nil)),
        (Int.min...Int.min, EditVector("-|", "8", "-8")),
    ]

    @Test(arguments: rangeVectors)
    func ranges(_ range: ClosedRange<Int>, _ vector: EditVector) {
        #expect(IntegerFormat(range: range).applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    /// Every sign-and-digits text of up to three digits is accepted exactly when some value of
    /// the range has its digits in order (leading zeros aside) and a compatible sign, checked
    /// by enumerating the range.
    @Test(arguments: [100...105, 1...600, -50...(-10), -5...5, 0...0, 7...7, 90...1100, -1000...(-999), -12...345])
    func completionMatchesEnumeration(_ range: ClosedRange<Int>) {
        let format = IntegerFormat(range: range)
        for length in 1...3 {
            for number in 0..<Int(pow(10, Double(length))) {
                let digits = String(number)
                let padded = String(repeating: "0", count: length - digits.count) + digits
                for sign in ["", "-"] {
                    let text = sign + padded
                    let expected = Self.canComplete(text, in: range)
                    let accepted = format.applying(text, in: NSRange(location: 0, length: 0), to: "") != nil
                    #expect(accepted == expected, "\(text) in \(range)")
                }
            }
        }
    }

    private static func canComplete(_ text: String, in range: ClosedRange<Int>) -> Bool {
        let isNegative = text.hasPrefix("-")
        if isNegative && range.lowerBound >= 0 { return false }
        let pattern = Array(text.drop { $0 == "-" || $0 == "0" })
        return range.contains { value in
            // A minus sign typed stays; one not typed yet can still be typed in front.
            if isNegative && value > 0 { return false }
            var remaining = pattern[...]
            for character in String(value.magnitude) where remaining.first == character {
                remaining = remaining.dropFirst()
            }
            return remaining.isEmpty
        }
    }

    @Test(arguments: [
        ("", nil), ("-", nil), ("-0", 0), ("0", 0), ("007", 7), ("42", 42), ("-42", -42),
        ("9223372036854775807", Int.max), ("9223372036854775808", nil),
        ("-9223372036854775808", Int.min), ("-9223372036854775809", nil),
        ("4 2", nil), ("1.0", nil), ("٤٢", 42), ("+1", nil), (" 1", nil), ("1-", nil),
    ] as [(String, Int?)])
    func values(_ text: String, _ expected: Int?) {
        #expect(IntegerFormat().value(from: text) == expected)
    }

    @Test(arguments: [("0", nil), ("1", 1), ("600", 600), ("601", nil), ("0600", 600), ("-1", nil)] as [(String, Int?)])
    func valuesInRange(_ text: String, _ expected: Int?) {
        #expect(IntegerFormat(range: 1...600).value(from: text) == expected)
    }

    @Test(arguments: [0, 7, -42, 600, Int.max, Int.min])
    func textReadsBackAsTheSameValue(_ value: Int) {
        let format = IntegerFormat()
        #expect(format.text(for: value) == String(value))
        #expect(format.value(from: format.text(for: value)) == value)
    }

    @Test
    func rangesThatCannotBeAppliedAreRefused() {
        let format = IntegerFormat()
        #expect(format.applying("1", in: NSRange(location: 5, length: 0), to: "12") == nil)
        #expect(format.applying("", in: NSRange(location: 1, length: 5), to: "12") == nil)
        #expect(format.applying("1", in: NSRange(location: NSNotFound, length: 0), to: "12") == nil)
    }
}
