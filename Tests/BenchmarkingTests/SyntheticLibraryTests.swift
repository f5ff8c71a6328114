import Foundation
import Testing
@testable import Benchmarking
import UserScripts

struct SyntheticLibraryTests {
    @Test func theSameSeedGivesTheSameLibrary() throws {
        let first = SyntheticLibrary(count: 200)
        let second = SyntheticLibrary(count: 200)
        let other = SyntheticLibrary(count: 200, seed: 7)
        #expect(first.scripts.map(\.text) == second.scripts.map(\.text))
        #expect(first.scripts.map(\.text) != other.scripts.map(\.text))
    }

    @Test func everyScriptHasThreeMatchPatternsSomeMoreRulesAndRunsAutomatically() throws {
        let library = SyntheticLibrary(count: 1_000)
        #expect(library.scripts.count == 1_000)
        for script in library.scripts {
            #expect(script.siteRules.prefix(3).allSatisfy { $0.kind == .match })
            #expect(script.siteRules.allSatisfy { $0.error == nil }, "\(script.siteRules.compactMap(\.error))")
            #expect(script.runsAutomatically)
        }
        let includes = library.scripts.flatMap(\.siteRules).filter { $0.kind == .include }
        #expect(includes.filter { $0.text.hasPrefix("/") }.count == 1_000 / SyntheticLibrary.regularExpressionShare)
        #expect(includes.filter { $0.text.hasSuffix(".tld/*") }.count == 1_000 / SyntheticLibrary.publicSuffixShare)
        #expect(library.scripts.filter { $0.siteRules.contains { $0.kind == .exclude } }.count == 2 * 1_000 / SyntheticLibrary.exclusionShare)
        #expect(ScriptMatcher(library.matcherInput).count == 1_000)
        let sizes = library.scripts.map(\.text.utf8.count)
        #expect((6_000...10_000).contains(sizes.reduce(0, +) / sizes.count))
    }

    @Test func aShareOfScriptsIsForWellKnownSitesAndAFewForEverySite() throws {
        let library = SyntheticLibrary(count: 10_000)
        let allSites = library.scripts.filter { $0.siteRules.contains { $0.text == "*://*/*" } }
        #expect(allSites.count == 10_000 / SyntheticLibrary.allSitesShare)
        let wellKnown = library.scripts.filter { script in
            SyntheticLibrary.wellKnownDomains.contains { script.siteRules[1].text.contains("*.\($0)/") }
        }
        #expect((300...700).contains(wellKnown.count))
    }

    @Test func theLookupURLHasRealMatchesButFarFewerThanTheLibrary() throws {
        let library = SyntheticLibrary(count: 10_000)
        let matches = ScriptMatcher(library.matcherInput).matches(try PageURL(SyntheticLibrary.lookupURL))
        #expect(matches.count >= 20 + 1)
        #expect(matches.count < 200)
    }

    @Test func generatedDomainsAreDistinct() {
        let domains = (0..<30_000).map(SyntheticLibrary.generatedDomain)
        #expect(Set(domains).count == domains.count)
        #expect(domains[0] == "mapleriver.com" || domains[0].hasSuffix(".com"))
    }

    @Test func writtenToAFolderItLoadsAsALibraryWithEveryScript() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try SyntheticLibrary(count: 50).write(to: folder)
        let library = try ScriptLibrary(directory: folder)
        #expect(try library.scripts().count == 50)
        #expect(try library.problems().isEmpty)
    }
}
