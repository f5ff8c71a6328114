import ArgumentParser

/// A number of seconds an option takes.
enum Seconds {
    /// Refuses anything but more than 0 and at most a day.
    static func check(_ seconds: Double, option: String) throws {
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            let given = seconds == seconds.rounded() && seconds.isFinite ? String(Int(seconds)) : String(seconds)
            throw ValidationError("\(option) must be more than 0 and at most 86400 seconds, got \(given)")
        }
    }
}
