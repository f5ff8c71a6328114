import Foundation

/// Repeated samples of one quantity: durations of an operation, or peak memory of a process.
///
/// The table compares medians, so one slow repetition (a page cache miss, another process
/// taking the CPU) moves nothing.
///
/// ```swift
/// let lookups = Measurement.timeBatches("lookup", batches: 25, iterationsPerBatch: 1_000) {
///     matcher.matches(url)
/// }
/// lookups.median   // seconds per lookup
/// ```
public struct Measurement: Sendable {
    /// What a sample counts.
    public enum Unit: Sendable, Hashable {
        /// Durations, in seconds.
        case seconds
        /// Amounts of memory, in bytes.
        case bytes
    }

    /// What was measured.
    public let name: String
    /// Each repetition's value, in ``unit``.
    public let samples: [Double]
    /// What the samples count.
    public let unit: Unit

    /// Wraps samples already taken.
    ///
    /// - Parameters:
    ///   - name: What was measured.
    ///   - samples: One value per repetition.
    ///   - unit: What the values count; seconds unless told.
    public init(name: String, samples: [Double], unit: Unit = .seconds) {
        self.name = name
        self.samples = samples
        self.unit = unit
    }

    /// A fixed value standing in for a measurement: a budget that a row is compared with.
    ///
    /// - Parameters:
    ///   - value: The budget, in `unit`.
    ///   - unit: What the value counts.
    public static func budget(_ value: Double, unit: Unit = .seconds) -> Measurement {
        Measurement(name: "budget", samples: [value], unit: unit)
    }

    /// The median sample; `nan` when there are none.
    public var median: Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// Times `repetitions` runs of `body` after `warmup` unmeasured ones.
    ///
    /// - Parameters:
    ///   - name: What is measured.
    ///   - repetitions: The number of timed runs, one sample each.
    ///   - warmup: Runs made first and not timed (connections, caches, lazy initialisation).
    ///   - body: The operation.
    public static func time(
        _ name: String, repetitions: Int, warmup: Int = 3, _ body: () async throws -> Void
    ) async rethrows -> Measurement {
        for _ in 0..<warmup { try await body() }
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try await body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Measurement(name: name, samples: samples)
    }

    /// Times two operations in alternation, `repetitions` runs of each after `warmup` unmeasured
    /// pairs: a subject and the baseline it is compared with, under the same conditions. Timed
    /// one block after the other, a slow spell of the machine or a browser that slows as a
    /// session ages lands on one side only and moves the ratio by itself.
    ///
    /// - Parameters:
    ///   - names: What each operation is.
    ///   - repetitions: The number of timed runs of each, one sample each.
    ///   - warmup: Pairs run first and not timed.
    ///   - first: The first operation of each pair.
    ///   - second: The second operation of each pair.
    /// - Returns: The two measurements, in the order given.
    public static func timeAlternately(
        _ names: (String, String), repetitions: Int, warmup: Int = 3,
        _ first: () async throws -> Void, _ second: () async throws -> Void
    ) async rethrows -> (Measurement, Measurement) {
        for _ in 0..<warmup {
            try await first()
            try await second()
        }
        var samples: ([Double], [Double]) = ([], [])
        samples.0.reserveCapacity(repetitions)
        samples.1.reserveCapacity(repetitions)
        for _ in 0..<repetitions {
            var start = DispatchTime.now().uptimeNanoseconds
            try await first()
            samples.0.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            start = DispatchTime.now().uptimeNanoseconds
            try await second()
            samples.1.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (Measurement(name: names.0, samples: samples.0), Measurement(name: names.1, samples: samples.1))
    }

    /// Times `repetitions` runs of a synchronous `body` after `warmup` unmeasured ones.
    ///
    /// - Parameters:
    ///   - name: What is measured.
    ///   - repetitions: The number of timed runs, one sample each.
    ///   - warmup: Runs made first and not timed.
    ///   - body: The operation.
    public static func timeSynchronously(
        _ name: String, repetitions: Int, warmup: Int = 3, _ body: () throws -> Void
    ) rethrows -> Measurement {
        for _ in 0..<warmup { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Measurement(name: name, samples: samples)
    }

    /// Times an operation too short to time alone: each sample is the mean duration of
    /// `iterationsPerBatch` back-to-back calls of `body`.
    ///
    /// Each result of `body` is handed to an opaque sink, so the optimiser cannot drop the work.
    ///
    /// - Parameters:
    ///   - name: What is measured.
    ///   - batches: The number of samples.
    ///   - iterationsPerBatch: Calls of `body` per sample.
    ///   - body: The operation; its result is kept alive until the next call.
    public static func timeBatches<Result>(
        _ name: String, batches: Int, iterationsPerBatch: Int, _ body: () throws -> Result
    ) rethrows -> Measurement {
        let iterations = max(iterationsPerBatch, 1)
        for _ in 0..<min(iterations, 100) { keep(try body()) }
        var samples: [Double] = []
        samples.reserveCapacity(batches)
        for _ in 0..<batches {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { keep(try body()) }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(iterations))
        }
        return Measurement(name: name, samples: samples)
    }

    /// Like ``timeBatches(_:batches:iterationsPerBatch:_:)``, with as many calls per batch as
    /// fill about `batchDuration` seconds, judged from the slowest of a few calls made first.
    ///
    /// - Parameters:
    ///   - name: What is measured.
    ///   - batches: The number of samples.
    ///   - batchDuration: Roughly how long each sample takes, in seconds.
    ///   - body: The operation.
    public static func timeCalibrated<Result>(
        _ name: String, batches: Int, batchDuration: Double = 0.01, _ body: () throws -> Result
    ) rethrows -> Measurement {
        var slowest = 1e-9
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            keep(try body())
            slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let iterations = Int(min(max(batchDuration / slowest, 1), 1_000_000))
        return try timeBatches(name, batches: batches, iterationsPerBatch: iterations, body)
    }

    /// An opaque use of a value, so that the work producing it is not optimised away.
    @inline(never) @_optimize(none)
    static func keep<Value>(_ value: Value) {
        withExtendedLifetime(value) {}
    }
}
