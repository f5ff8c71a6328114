import ActionExtensionSupport
import Testing

@Suite("Page titles shown in the navigation bar")
struct PageTitleTextTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var title: String
        var expected: String
        var testDescription: String { expected.debugDescription }
    }

    static let vectors: [Vector] = [
        Vector(title: "Example Domain", expected: "Example Domain"),
        Vector(title: "  Inbox (3)\n\t– Mail  ", expected: "Inbox (3) – Mail"),
        Vector(title: "a\u{0}b\u{1B}[31mc", expected: "a b [31mc"),
        Vector(title: "line\u{2028}break\u{2029}para\u{85}next", expected: "line break para next"),
        Vector(title: "invoice\u{202E}fdp.exe", expected: "invoicefdp.exe"),
        Vector(title: "\u{2067}isolated\u{2069} title", expected: "isolated title"),
        Vector(title: "שלום\u{200F}!", expected: "שלום\u{200F}!"),
        Vector(title: "👨‍👩‍👧‍👦 Family", expected: "👨‍👩‍👧‍👦 Family"),
        Vector(title: "🏴󠁧󠁢󠁥󠁮󠁧󠁿 England", expected: "🏴󠁧󠁢󠁥󠁮󠁧󠁿 England"),
        Vector(title: "Tiếng Việt", expected: "Tiếng Việt"),
        Vector(title: "non\u{00A0}breaking", expected: "non breaking"),
        Vector(title: "z" + String(repeating: "\u{0301}", count: 50) + "algo", expected: "z" + String(repeating: "\u{0301}", count: 4) + "algo"),
    ]

    @Test("cleans page-provided titles", arguments: vectors)
    func cleans(_ vector: Vector) {
        #expect(PageTitleText.display(vector.title, fallback: "fallback") == vector.expected)
    }

    @Test("falls back when nothing visible is left", arguments: ["", "   ", "\n\t\r", "\u{202E}\u{202C}", "\u{0}\u{1}"])
    func fallsBack(_ title: String) {
        #expect(PageTitleText.display(title, fallback: "example.com") == "example.com")
    }

    @Test("cuts long titles at a character boundary, ellipsis included in the limit")
    func cutsLongTitles() {
        let long = String(repeating: "👨‍👩‍👧‍👦", count: 200)
        let shown = PageTitleText.display(long, fallback: "")
        #expect(shown.count == PageTitleText.maximumLength)
        #expect(shown.hasSuffix("…"))
        #expect(shown.dropLast().allSatisfy { $0 == "👨‍👩‍👧‍👦" })
    }

    @Test("a title exactly at the limit is kept whole")
    func keepsTitleAtLimit() {
        let exact = String(repeating: "a", count: PageTitleText.maximumLength)
        #expect(PageTitleText.display(exact, fallback: "") == exact)
    }

    @Test("no space is left before the ellipsis")
    func trimsBeforeEllipsis() {
        #expect(PageTitleText.display("abcd efgh", fallback: "", maximumLength: 6) == "abcd…")
    }

    @Test("a nonsensical limit still shows something")
    func tinyLimit() {
        #expect(PageTitleText.display("abc", fallback: "", maximumLength: 0) == "…")
        #expect(PageTitleText.display("a", fallback: "", maximumLength: 1) == "a")
    }
}
