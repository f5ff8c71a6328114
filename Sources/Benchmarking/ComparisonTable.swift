import Foundation

/// Renders comparison rows as one fixed-width text table, wide enough for the longest title.
///
/// ```text
/// comparison                                subject     baseline    ratio   aim
/// webkit: warm run vs bare Execute Script   2.10 ms     1.90 ms     1.11x   <= 1.2x met
/// ```
public enum ComparisonTable {
    /// The table's text: a header, then one line per row, in the given order.
    public static func render(_ rows: [ComparisonRow]) -> String {
        let titleWidth = max(rows.map(\.title.count).max() ?? 0, "comparison".count) + 2
        var lines = [pad("comparison", titleWidth) + pad("subject", 12) + pad("baseline", 12) + pad("ratio", 8) + "aim"]
        for row in rows {
            let baseline = row.baseline.map { format($0.median, unit: $0.unit) } ?? "-"
            let ratio = row.ratio.map { String(format: "%.2fx", $0) } ?? "-"
            lines.append(pad(row.title, titleWidth) + pad(format(row.subject.median, unit: row.subject.unit), 12)
                         + pad(baseline, 12) + pad(ratio, 8) + aimText(row) + (row.note.map { "  (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// A value with a unit that suits its size: `850 ns`, `3.20 us`, `1.45 ms`, `2.01 s`, `38.4 MB`.
    public static func format(_ value: Double, unit: Measurement.Unit) -> String {
        guard value.isFinite else { return "-" }
        switch unit {
        case .seconds:
            if value >= 1 { return String(format: "%.2f s", value) }
            if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
            if value >= 1e-6 { return String(format: "%.2f us", value * 1e6) }
            return String(format: "%.0f ns", value * 1e9)
        case .bytes:
            if value >= 1_048_576 { return String(format: "%.1f MB", value / 1_048_576) }
            if value >= 1_024 { return String(format: "%.1f kB", value / 1_024) }
            return String(format: "%.0f B", value)
        }
    }

    private static func aimText(_ row: ComparisonRow) -> String {
        guard let aim = row.aim else { return "-" }
        let verdict = switch row.meetsAim {
        case true?: "met"
        case false?: "MISSED"
        case nil: "not measured"
        }
        return String(format: "<= %.1fx ", aim) + verdict
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
