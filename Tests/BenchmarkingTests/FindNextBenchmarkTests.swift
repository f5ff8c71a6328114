@testable import Benchmarking
import Testing

/// The find-next row of `pagescript bench`, measured briefly: it measures the search it names
/// (each step goes from one match to the other, 5,000 lines away), and its median is printed.
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
        print("find next, 10,000 lines, matches 5,000 apart: median \((row.subject.median * 1e6).rounded()) us over 9 samples")
    }
}
