@testable import Benchmarking
import Testing

/// The find-next row of `pagescript bench`, measured briefly: it measures the search it names
/// (each step goes from one match to the other, 5,000 lines away); its timing is `pagescript bench`'s.
@Suite struct FindNextBenchmarkTests {
    @Test func eachStepGoesToTheOtherMatch() {
        var probe = KeystrokeBenchmark.findNextProbe()
        #expect(probe.cursorLine == 2_501)
        #expect(!probe.findNext().isEmpty)
        #expect(probe.cursorLine == 7_501)
        _ = probe.findNext()
        #expect(probe.cursorLine == 2_501)
    }

    @Test func theRowHasTheSamplesItWasAskedFor() {
        let row = KeystrokeBenchmark.findNextRow(batches: 9)
        #expect(row.subject.samples.count == 9)
        #expect(row.subject.median > 0)
    }
}
