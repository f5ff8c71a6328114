import Foundation
import TestSupport
import Testing
@testable import UserScripts

struct PublicSuffixListTests {
    static let sample = """
        // A made-up list in the real one's format.
        // ===BEGIN ICANN DOMAINS===
        com
        uk
        co.uk
        jp
        *.kawasaki.jp
        !city.kawasaki.jp
        // 中国 (China)
        公司.cn
        cn
        // ===END ICANN DOMAINS===
        // ===BEGIN PRIVATE DOMAINS===
        blogspot.com
        github.io
        // ===END PRIVATE DOMAINS===
        """

    @Test(arguments: [
        ("example.com", "com"),
        ("www.example.co.uk", "co.uk"),
        ("example.uk", "uk"),
        ("x.blogspot.com", "com"),
        ("a.b.kawasaki.jp", "b.kawasaki.jp"),
        ("city.kawasaki.jp", "kawasaki.jp"),
        ("www.city.kawasaki.jp", "kawasaki.jp"),
        ("shop.xn--55qx5d.cn", "xn--55qx5d.cn"),
        ("user.github.io", nil),
        ("intranet.local", nil),
        ("com", "com"),
    ])
    func theLongestICANNRuleWins(_ domain: String, _ suffix: String?) throws {
        let list = try PublicSuffixList(text: Self.sample, path: "sample")
        #expect(list.publicSuffix(of: domain).map(String.init) == suffix)
    }

    @Test func theSystemListIsReadFromDebiansPackage() throws {
        let list = try PublicSuffixList(contentsOf: PublicSuffixList.systemPath)
        #expect(list.count > 5_000)
        #expect(list.publicSuffix(of: "en.wikipedia.co.uk") == "co.uk")
        #expect(list.publicSuffix(of: "someone.blogspot.com") == "com")
        #expect(list.publicSuffix(of: "someone.github.io") == "io")
        #expect(list.publicSuffix(of: "shop.xn--55qx5d.cn") == "xn--55qx5d.cn")
    }

    @Test func aMissingListIsAClearErrorAndMatchesNothing() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.file("nowhere/public_suffix_list.dat").path(percentEncoded: false)
        let error = #expect(throws: PublicSuffixListError.self) { try PublicSuffixList(contentsOf: missing) }
        #expect(error?.description.contains("does not exist") == true)
        #expect(error?.description.contains("Debian package `publicsuffix`") == true)

        let script = UserScript(text: "// ==UserScript==\n// @include *://*.wikipedia.tld/*\n// ==/UserScript==\n")
        let matcher = ScriptMatcher([(id: ScriptID("wiki"), rules: script.siteRules)], publicSuffixListPath: missing)
        #expect(matcher.matches(try PageURL("https://en.wikipedia.org/")).isEmpty)

        let library = try ScriptLibrary(directory: folder.file("library"), publicSuffixListPath: missing)
        _ = try library.create(script)
        #expect(try library.which(url: try PageURL("https://en.wikipedia.org/")).isEmpty)
        #expect(try library.problems().contains { $0.path == missing && $0.reason.contains("match no page") })
    }

    /// Plain rules skip IDNA when the list is read; every rule of the system's list must come out
    /// as IDNA would make it, and rules IDNA changes or refuses must still go through it.
    @Test(arguments: [
        "com", "co.uk", "kawasaki.jp", "xn--p1ai", "EXAMPLE.com", "ümlaut.de", "a..b", ".com", "com.", "ab--cd.com", "-start.com",
    ])
    func plainRulesAreReadAsIDNAReadsThem(rule: String) {
        #expect(PublicSuffixList.canonical(ArraySlice(rule.utf8)) == (try? IDNA.toASCII(rule)))
    }

    @Test func everyRuleOfTheSystemListIsReadAsIDNAReadsIt() throws {
        let text = try String(contentsOfFile: PublicSuffixList.systemPath, encoding: .utf8)
        var compared = 0
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("//") {
            guard var rule = line.split(whereSeparator: \.isWhitespace).first else { continue }
            if rule.hasPrefix("!") { rule = rule.dropFirst() } else if rule.hasPrefix("*.") { rule = rule.dropFirst(2) }
            #expect(PublicSuffixList.canonical(ArraySlice(rule.utf8)) == (try? IDNA.toASCII(String(rule))), "\(rule)")
            compared += 1
        }
        #expect(compared > 5_000)
    }

    @Test func aFileWithoutAnICANNSectionIsRefused() {
        #expect(throws: PublicSuffixListError.self) { try PublicSuffixList(text: "com\nnet\n", path: "flat") }
    }
}
