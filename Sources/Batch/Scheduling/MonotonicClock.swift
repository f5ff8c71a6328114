import SystemSupport

/// Seconds on the monotonic clock, which neither jumps nor runs backwards with the wall clock.
enum MonotonicClock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
