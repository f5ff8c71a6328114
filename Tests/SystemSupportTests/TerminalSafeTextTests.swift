import Testing
import SystemSupport

@Suite("Terminal-safe text")
struct TerminalSafeTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("東京 タワー", "東京 タワー"),
        ("emoji 🎉 👩‍💻 👨‍👩‍👧 🇯🇵 ❤️", "emoji 🎉 👩‍💻 👨‍👩‍👧 🇯🇵 ❤️"),
        ("café naïve", "café naïve"),
        ("back\\slash", "back\\slash"),
    ])
    func printableTextIsUnchanged(_ input: String, _ expected: String) {
        #expect(TerminalSafeText.escaped(input) == expected)
    }

    @Test(arguments: [
        ("a\nb", "a\\nb"),
        ("a\tb", "a\\tb"),
        ("a\rb", "a\\rb"),
        ("\u{1B}[2J", "\\e[2J"),
        ("\u{1B}]0;evil title\u{7}", "\\e]0;evil title\\u{7}"),
        ("\u{0}", "\\u{0}"),
        ("\u{7F}", "\\u{7F}"),
        ("\u{9B}31m", "\\u{9B}31m"),
        ("\u{85}", "\\u{85}"),
        ("abc\u{202E}def", "abc\\u{202E}def"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
        ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
        ("\u{2067}\u{2068}", "\\u{2067}\\u{2068}"),
        ("zero\u{200B}width", "zero\\u{200B}width"),
        ("line\u{2028}sep\u{2029}", "line\\u{2028}sep\\u{2029}"),
        ("\u{FEFF}bom", "\\u{FEFF}bom"),
        ("a\u{200D}b", "a\\u{200D}b"),
        ("\r\n", "\\r\\n"),
    ])
    func controlsAndInvisiblesAreEscaped(_ input: String, _ expected: String) {
        #expect(TerminalSafeText.escaped(input) == expected)
    }

    @Test func everyC0AndC1ControlIsEscaped() {
        for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
            let scalar = Unicode.Scalar(UInt32(value))!
            let escaped = TerminalSafeText.escaped("x" + String(Character(scalar)) + "y")
            #expect(!escaped.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16)) left raw")
            #expect(escaped.hasPrefix("x\\"))
        }
    }

    @Test func escapedTextHasNoControlsLeft() {
        let hostile = "T\u{1B}[31mi\u{9B}t\u{7}l\u{202E}e\u{2066}\u{200B}\n"
        let escaped = TerminalSafeText.escaped(hostile)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!escaped.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
    }
}
