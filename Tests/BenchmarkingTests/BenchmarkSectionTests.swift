import Foundation
import Testing
@testable import Benchmarking

/// Which sections need Selenium and Playwright: the peers are set up only for the rows that
/// compare with them, so `--sections matching keystrokes` installs nothing.
struct BenchmarkSectionTests {
    @Test(arguments: [
        ([BenchmarkSection.matching, .keystrokes], true, false),
        ([.runs, .memory], true, false),
        ([.browse], true, false),
        ([.peers], true, true),
        ([.batch], true, true),
        ([.matching, .batch], true, true),
        ([.realPages], true, true),
        ([.realPages], false, false),
        (BenchmarkSection.allCases, true, true),
        (BenchmarkSection.allCases, false, false),
        ([.peers, .batch], false, false),
    ])
    func thePeersAreNeededOnlyByThePeerBatchAndRealPageRows(sections: [BenchmarkSection], includesPeer: Bool, needed: Bool) {
        var options = BenchmarkOptions(quick: true, peerFolder: URL(fileURLWithPath: "/nonexistent"))
        options.sections = Set(sections)
        options.includesPeer = includesPeer
        #expect(options.needsPeers == needed, "\(sections), includesPeer \(includesPeer)")
    }

    @Test func everySectionIsMeasuredByDefault() {
        #expect(BenchmarkOptions().sections == Set(BenchmarkSection.allCases))
    }

    @Test func theRealPageSectionIsNamedAsTheCommandLineTakesIt() {
        #expect(BenchmarkSection(rawValue: "real-pages") == .realPages)
    }
}
