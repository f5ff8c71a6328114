/// How long to wait before asking again for a session: doubling from ``initial`` up to
/// ``maximum``, each wait drawn between half and all of its step so that many waiting workers do
/// not ask a grid at the same instant.
///
/// ```swift
/// let backoff = Backoff()
/// backoff.delay(afterFailures: 1, unitRandom: 1)   // 0.25
/// backoff.delay(afterFailures: 4, unitRandom: 1)   // 2.0
/// ```
public struct Backoff: Sendable, Equatable {
    /// The first step, in seconds.
    public var initial: Double = 0.25
    /// The longest step, in seconds.
    public var maximum: Double = 10

    public init(initial: Double = 0.25, maximum: Double = 10) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` failures in a row (from 1), given a random number in `0...1`.
    public func delay(afterFailures failures: Int, unitRandom: Double) -> Double {
        let exponent = Double(min(max(failures, 1) - 1, 30))
        let step = min(maximum, initial * pow2(exponent))
        return step * (0.5 + 0.5 * min(max(unitRandom, 0), 1))
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
