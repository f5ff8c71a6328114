import Foundation
import Testing
import TextInput

struct DecimalFormatTests {
    static let enUS = Locale(identifier: "en_US")
    static let deDE = Locale(identifier: "de_DE")
    static let frFR = Locale(identifier: "fr_FR")

    static func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }

    /// Typing is the same in every locale: both separators are accepted.
    static let typing: [EditVector] = [
        EditVector("1|", ".", "1."),
        EditVector("1|", ",", "1,"),
        EditVector("1.|", "5", "1.5"),
        EditVector("1,|", "5", "1,5"),
        EditVector("1.5|", ".", nil),
        EditVector("1.5|", ",", nil),
        EditVector("1|.5", ",", nil),
        EditVector("|", ".", "."),
        EditVector("|", ",", ","),
        EditVector("|", "-", "-"),
        EditVector("-|", "0", "-0"),
        EditVector("-0|", ".", "-0."),
        EditVector("-0.|", "5", "-0.5"),
        EditVector("|1.5", "-", "-1.5"),
        EditVector("1|.5", "-", nil),
        EditVector("|", "x", nil),
        EditVector("|", "e", nil),
        EditVector("0|", "5", "5"),
        EditVector("0|", ".", "0."),
        EditVector("1|", "٫", "1."),
        EditVector("|", "٣", "3"),
        EditVector("12[.]5", "", "125"),
        EditVector("1[2.3]4", "9", "194"),
        EditVector("1[2.3]4", ",", "1,4"),
        EditVector("|", String(repeating: "9", count: 38), String(repeating: "9", count: 38)),
        EditVector("\(String(repeating: "9", count: 38))|", "9", nil),
        EditVector("\(String(repeating: "9", count: 20)).\(String(repeating: "9", count: 18))|", "9", nil),
        EditVector("0000|", "1", "00001"),
    ]

    @Test(arguments: [enUS, deDE, frFR], typing)
    func typingInEveryLocale(_ locale: Locale, _ vector: EditVector) {
        let format = DecimalFormat(locale: locale)
        #expect(format.applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let paste: [(Locale, EditVector)] = [
        (enUS, EditVector("|", "1,234.56", "1234.56")),
        (enUS, EditVector("|", "1,234", "1234")),
        (enUS, EditVector("|", "3,5", "3.5")),
        (enUS, EditVector("|", "0,5", "0.5")),
        (enUS, EditVector("|", "1.234", "1.234")),
        (enUS, EditVector("|", "$1,234.50", "1234.50")),
        (enUS, EditVector("|", "1.234,56", "1234.56")),
        (enUS, EditVector("|", "12,345,678", "12345678")),
        (enUS, EditVector("|", "1.2.3", nil)),
        (enUS, EditVector("|", "12 apples", nil)),
        (enUS, EditVector("|", "−7.5", "-7.5")),
        (enUS, EditVector("1|", "2.5", "12.5")),
        (enUS, EditVector("1.|", "2.5", nil)),
        (deDE, EditVector("|", "1.234,56", "1234,56")),
        (deDE, EditVector("|", "1.234", "1234")),
        (deDE, EditVector("|", "1,5", "1,5")),
        (deDE, EditVector("|", "3.5", "3,5")),
        (deDE, EditVector("|", "1,234", "1,234")),
        (deDE, EditVector("|", "1.234,56 €", "1234,56")),
        (deDE, EditVector("|", "1,234.56", "1234,56")),
        (frFR, EditVector("|", "1 234,56", "1234,56")),
        (frFR, EditVector("|", "1\u{202F}234,56", "1234,56")),
        (frFR, EditVector("|", "1\u{00A0}234\u{00A0}567", "1234567")),
        (frFR, EditVector("|", "1.5", "1,5")),
        (frFR, EditVector("|", "12,50 €", "12,50")),
    ]

    @Test(arguments: paste)
    func pasteInLocale(_ locale: Locale, _ vector: EditVector) {
        let format = DecimalFormat(locale: locale)
        #expect(format.applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let fractionCap: [(Int, EditVector)] = [
        (2, EditVector("1.2|", "3", "1.23")),
        (2, EditVector("1.23|", "4", nil)),
        (2, EditVector("1|.23", "9", "19.23")),
        (2, EditVector("1.|23", "9", nil)),
        (2, EditVector("|", "1.500", "1.50")),
        (2, EditVector("|", "1.505", nil)),
        (2, EditVector("|", "0.5", "0.5")),
        (0, EditVector("1|", ".", nil)),
        (0, EditVector("1|", ",", nil)),
        (0, EditVector("|", "12.00", "12")),
        (0, EditVector("|", "12.5", nil)),
    ]

    @Test(arguments: fractionCap)
    func fractionDigitsAreCapped(_ cap: Int, _ vector: EditVector) {
        let format = DecimalFormat(locale: Self.enUS, maximumFractionDigits: cap)
        #expect(format.applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let ranges: [(ClosedRange<Decimal>, Int?, EditVector)] = [
        (decimal("0.5")...100, 2, EditVector("|", "0", "0")),
        (decimal("0.5")...100, 2, EditVector("|", "-", nil)),
        (decimal("0.5")...100, 2, EditVector("10|", "0", "100")),
        (decimal("0.5")...100, 2, EditVector("100|", ".", "100.")),
        (decimal("0.5")...100, 2, EditVector("100.|", "5", nil)),
        (decimal("0.5")...100, 2, EditVector("100.|", "0", "100.0")),
        (decimal("0.5")...100, 2, EditVector("100|", "0", nil)),
        (decimal("0.5")...100, 2, EditVector("|", "2000", nil)),
        (decimal("0.5")...100, 2, EditVector("99.|", "9", "99.9")),
        (0...1, nil, EditVector("0.|", "9", "0.9")),
        (0...1, nil, EditVector("1.|", "5", nil)),
        (0...1, nil, EditVector("1.|", "0", "1.0")),
        (0...1, nil, EditVector("1|", "0", nil)),
        (0...1, nil, EditVector("|", "2", nil)),
        (-10...(-1), nil, EditVector("|", "-", "-")),
        (-10...(-1), nil, EditVector("-|", "5", "-5")),
        (-10...(-1), nil, EditVector("-1|", "1", nil)),
        (-10...(-1), nil, EditVector("-0.|", "5", "-0.5")),
        (-10...(-1), nil, EditVector("|", "5", "5")),
        (-10...(-1), nil, EditVector("|", "11", nil)),
        (decimal("-0.5")...decimal("0.5"), 1, EditVector("-0.|", "5", "-0.5")),
        (decimal("-0.5")...decimal("0.5"), 1, EditVector("-0.|", "6", nil)),
        (decimal("-0.5")...decimal("0.5"), 1, EditVector("|", "1", nil)),
    ]

    @Test(arguments: ranges)
    func rangeLimits(_ range: ClosedRange<Decimal>, _ cap: Int?, _ vector: EditVector) {
        let format = DecimalFormat(locale: Self.enUS, maximumFractionDigits: cap, range: range)
        #expect(format.applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    @Test(arguments: [
        ("", nil), ("-", nil), (".", nil), (",", nil), ("-.", nil), ("1.", nil), ("1,", nil),
        ("-0", "0"), ("0", "0"), (".5", "0.5"), ("-.5", "-0.5"), ("1.5", "1.5"), ("1,5", "1.5"),
        ("007.50", "7.5"), ("-12.345", "-12.345"), ("0.1", "0.1"), ("1٫5", "1.5"), ("1.2.3", nil),
        ("1 000", nil), ("+1", nil), ("12345678901234567890.123456789012345678", "12345678901234567890.123456789012345678"),
        ("123456789012345678901234567890123456789", nil),
    ] as [(String, String?)])
    func values(_ text: String, _ expected: String?) {
        for locale in [Self.enUS, Self.deDE, Self.frFR] {
            #expect(DecimalFormat(locale: locale).value(from: text) == expected.map(Self.decimal), "\(locale.identifier)")
        }
    }

    @Test
    func valuesRespectCapAndRange() {
        let format = DecimalFormat(locale: Self.enUS, maximumFractionDigits: 2, range: 0...10)
        #expect(format.value(from: "1.25") == Self.decimal("1.25"))
        #expect(format.value(from: "1.255") == nil)
        #expect(format.value(from: "10.01") == nil)
        #expect(format.value(from: "10") == 10)
        #expect(format.value(from: "-1") == nil)
    }

    @Test(arguments: [
        (enUS, nil, "1234.5", "1234.5"), (deDE, nil, "1234.5", "1234,5"), (frFR, nil, "1234.5", "1234,5"),
        (deDE, nil, "-0.5", "-0,5"), (enUS, nil, "0", "0"), (enUS, 2, "1.005", "1.01"), (enUS, 2, "1.2355", "1.24"),
        (enUS, 2, "1.50", "1.5"), (deDE, 0, "2.5", "3"), (enUS, nil, "1e30", "1000000000000000000000000000000"),
        (enUS, nil, "12345678901234567890.123", "12345678901234567890.123"),
    ] as [(Locale, Int?, String, String)])
    func textUsesTheLocaleSeparator(_ locale: Locale, _ cap: Int?, _ value: String, _ expected: String) {
        #expect(DecimalFormat(locale: locale, maximumFractionDigits: cap).text(for: Self.decimal(value)) == expected)
    }

    @Test(arguments: [enUS, deDE, frFR, Locale(identifier: "ar_EG"), Locale(identifier: "de_CH")])
    func textReadsBackAsTheSameValue(_ locale: Locale) {
        let format = DecimalFormat(locale: locale)
        for value in ["0", "1.5", "-1234.5678", "0.001", "99999999999999999999999999999999999999"].map(Self.decimal) {
            #expect(format.value(from: format.text(for: value)) == value, "\(value) in \(locale.identifier)")
        }
    }

    @Test
    func nanReadsAsEmpty() {
        #expect(DecimalFormat(locale: Self.enUS).text(for: .nan) == "")
    }
}
