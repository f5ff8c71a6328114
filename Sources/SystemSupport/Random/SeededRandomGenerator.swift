/// A small, fast random number generator that gives the same numbers for the same seed on
/// every machine (SplitMix64), for generated test data and benchmark fixtures that must be
/// reproducible: a failing random case can be run again, a benchmark library is the same on
/// every run.
///
/// Not for anything secret: use `SystemRandomNumberGenerator` there.
///
/// ```swift
/// var random = SeededRandomGenerator(seed: 20_240_611)
/// let index = Int.random(in: 0..<hosts.count, using: &random)
/// ```
public struct SeededRandomGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers follow from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
