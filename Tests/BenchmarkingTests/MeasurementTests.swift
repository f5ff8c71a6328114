import Testing
@testable import Benchmarking

struct MeasurementTests {
    @Test(arguments: [
        ([3.0, 1, 2], 2.0),
        ([4.0, 1, 3, 2], 2.5),
        ([7.0], 7.0),
        ([5.0, 5, 1000], 5.0),
    ])
    func medianIsTheMiddleSample(samples: [Double], median: Double) {
        #expect(Measurement(name: "x", samples: samples).median == median)
    }

    @Test func medianOfNoSamplesIsNotANumber() {
        #expect(Measurement(name: "x", samples: []).median.isNaN)
    }

    @Test func aBudgetIsOneSampleInTheGivenUnit() {
        let budget = Measurement.budget(20e-6)
        #expect(budget.samples == [20e-6])
        #expect(budget.unit == .seconds)
        #expect(Measurement.budget(1024, unit: .bytes).unit == .bytes)
    }

    @Test func batchesTakeOneSampleEachAndCallTheBodyForEveryIteration() {
        var calls = 0
        let measurement = Measurement.timeBatches("count", batches: 4, iterationsPerBatch: 10) {
            calls += 1
            return calls
        }
        #expect(measurement.samples.count == 4)
        #expect(calls == 10 + 4 * 10)
        #expect(measurement.samples.allSatisfy { $0 >= 0 })
    }

    @Test func readsThePeakResidentSetFromProcStatus() {
        let status = "Name:\tpagescript\nVmPeak:\t  900000 kB\nVmHWM:\t   40960 kB\nVmRSS:\t   30000 kB\n"
        #expect(MeasuredProcess.highWaterMark(inStatus: status) == 40_960.0 * 1_024)
        #expect(MeasuredProcess.highWaterMark(inStatus: "Name:\tzombie\nState:\tZ (zombie)\n") == nil)
    }
}
