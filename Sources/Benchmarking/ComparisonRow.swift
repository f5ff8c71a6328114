import Foundation

/// One line of the benchmark table: a measurement against the floor or peer it is compared with.
public struct ComparisonRow: Sendable {
    /// What the row compares, e.g. `webkit: warm run vs bare Execute Script`.
    public let title: String
    /// The measurement of PageScript.
    public let subject: Measurement
    /// The floor or peer.
    public let baseline: Measurement
    /// The ratio the row aims at (subject / baseline), if any.
    public let aim: Double?

    public init(title: String, subject: Measurement, baseline: Measurement, aim: Double?) {
        self.title = title
        self.subject = subject
        self.baseline = baseline
        self.aim = aim
    }

    /// subject / baseline, by medians.
    public var ratio: Double { subject.median / baseline.median }

    /// Whether the aim is met (true when there is none).
    public var meetsAim: Bool { aim.map { ratio <= $0 } ?? true }
}

/// Renders rows as a fixed-width text table.
public enum ComparisonTable {
    /// The table's text, one row per comparison.
    public static func render(_ rows: [ComparisonRow]) -> String {
        var lines = [pad("comparison", 52) + pad("subject", 12) + pad("baseline", 12) + pad("ratio", 8) + "aim"]
        for row in rows {
            let aim = row.aim.map { String(format: "<= %.1fx %@", $0, row.meetsAim ? "met" : "MISSED") } ?? "-"
            lines.append(pad(row.title, 52) + pad(format(row.subject.median), 12) + pad(format(row.baseline.median), 12)
                         + pad(String(format: "%.2fx", row.ratio), 8) + aim)
        }
        return lines.joined(separator: "\n")
    }

    /// A duration with a unit that suits it.
    public static func format(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
        if seconds >= 1e-6 { return String(format: "%.2f us", seconds * 1e6) }
        return String(format: "%.0f ns", seconds * 1e9)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
