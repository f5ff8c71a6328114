import Testing
@testable import UserScripts

struct PunycodeTests {
    /// RFC 3492 section 7.1 sample strings, and two everyday ones.
    @Test(arguments: [
        ("\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}", "egbpdaj6bu4bxfgehfvwxn"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("他們爲什麽不說中文", "ihqwctvzc91f659drss3x8bo0yb"),
        ("Pročprostěnemluvíčesky", "Proprostnemluvesky-uyb24dma41a"),
        ("למההםפשוטלאמדבריםעברית", "4dbcagdahymbxekheh6e0a7fei0b"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
        ("安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        ("MajiでKoiする5秒前", "MajiKoi5-783gue6qz075azm5e"),
        ("そのスピードで", "d9juau41awczczp"),
        ("-> $1.00 <-", "-> $1.00 <--"),
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
    ])
    func encodesAndDecodesTheRFCSamples(_ unicode: String, _ encoded: String) throws {
        #expect(Punycode.encode(Array(unicode.unicodeScalars)) == encoded)
        let decoded = try #require(Punycode.decode(Substring(encoded)))
        #expect(String(String.UnicodeScalarView(decoded)) == unicode)
    }

    @Test(arguments: ["99999999999", "-9", "zzzzzzzzzzzzzzzzzzzzzzzz", "ü-a"])
    func refusesInvalidInput(_ encoded: String) {
        #expect(Punycode.decode(Substring(encoded)) == nil)
    }
}
