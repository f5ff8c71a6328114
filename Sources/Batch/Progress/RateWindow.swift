/// Pages per second over the last few seconds, from the times records were written.
///
/// ```swift
/// var window = RateWindow()
/// window.record(at: 10.2)
/// window.rate(at: 12, startedAt: 0)   // 0.1: one page in the last 10 s
/// ```
public struct RateWindow: Sendable {
    /// How far back the rate looks, in seconds.
    public let span: Double
    private var times: [Double] = []
    private var first = 0

    public init(span: Double = 10) {
        self.span = span
    }

    /// Notes a record written at `time` (seconds on a monotonic clock).
    public mutating func record(at time: Double) {
        times.append(time)
    }

    /// Records per second over the last ``span`` seconds (or since `startedAt`, when that is
    /// shorter); `nil` during the first second.
    public mutating func rate(at now: Double, startedAt: Double) -> Double? {
        while first < times.count, times[first] < now - span { first += 1 }
        if first > 1024, first * 2 > times.count {
            times.removeFirst(first)
            first = 0
        }
        let window = min(span, now - startedAt)
        guard window >= 1 else { return nil }
        return Double(times.count - first) / window
    }
}
