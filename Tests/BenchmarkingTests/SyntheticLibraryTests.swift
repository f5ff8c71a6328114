import Foundation
import Testing
@testable import Benchmarking
import UserScripts

struct SyntheticLibraryTests {
    @Test func theSameSeedGivesTheSameLibrary() throws {
        let first = try SyntheticLibrary(count: 200)
        let second = try SyntheticLibrary(count: 200)
        let other = try SyntheticLibrary(count: 200, seed: 7)
        #expect(first.scripts.map(\.text) == second.scripts.map(\.text))
        #expect(first.scripts.map(\.text) != other.scripts.map(\.text))
    }

    @Test func everyScriptHasThreeValidMatchPatternsAndRunsAutomatically() throws {
        let library = try SyntheticLibrary(count: 1_000)
        #expect(library.scripts.count == 1_000)
        for script in library.scripts {
            #expect(script.siteRules.count == 3)
            #expect(script.siteRules.allSatisfy { $0.kind == .match && $0.error == nil })
            #expect(script.runsAutomatically)
        }
        #expect(ScriptMatcher(library.matcherInput).count == 1_000)
    }

    @Test func aShareOfScriptsIsForWellKnownSitesAndAFewForEverySite() throws {
        let library = try SyntheticLibrary(count: 10_000)
        let allSites = library.scripts.filter { $0.siteRules.contains { $0.text == "*://*/*" } }
        #expect(allSites.count == 10_000 / SyntheticLibrary.allSitesShare)
        let wellKnown = library.scripts.filter { script in
            SyntheticLibrary.wellKnownDomains.contains { script.siteRules[1].text.contains("*.\($0)/") }
        }
        #expect((300...700).contains(wellKnown.count))
    }

    @Test func theLookupURLHasRealMatchesButFarFewerThanTheLibrary() throws {
        let library = try SyntheticLibrary(count: 10_000)
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
