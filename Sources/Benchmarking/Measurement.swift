import Foundation

/// Timings of one operation, repeated.
public struct Measurement: Sendable {
    /// What was measured.
    public let name: String
    /// Each repetition's duration, in seconds.
    public let samples: [Double]

    public init(name: String, samples: [Double]) {
        self.name = name
        self.samples = samples
    }

    /// The median duration, in seconds.
    public var median: Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// Times `repetitions` runs of `body` after `warmup` unmeasured ones.
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
}
