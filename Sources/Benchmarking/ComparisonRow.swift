import Foundation

/// One line of the benchmark table: a measurement of PageScript against the floor, the peer or
/// the budget it is compared with.
///
/// The ratio is always PageScript's median over the baseline's median, so lower is better. A row
/// without a natural peer compares with its budget (``budget(title:subject:budget:)``): its ratio
/// then reads as the fraction of the budget used.
///
/// ```swift
/// let row = ComparisonRow(title: "webkit: warm run vs bare Execute Script", subject: warm, baseline: bare, aim: 1.1)
/// row.ratio      // 1.07
/// row.meetsAim   // true
/// ```
public struct ComparisonRow: Sendable {
    /// What the row compares, e.g. `webkit: warm run vs bare Execute Script`.
    public let title: String
    /// The measurement of PageScript.
    public let subject: Measurement
    /// The floor, peer or budget; `nil` when it could not be measured (the peer was skipped).
    public let baseline: Measurement?
    /// The ratio the row aims at (subject / baseline, at most), if any.
    public let aim: Double?
    /// What the reader should know about the row, such as why its baseline is missing.
    public let note: String?

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - title: What the row compares.
    ///   - subject: PageScript's measurement.
    ///   - baseline: What it is compared with; `nil` when that could not be measured.
    ///   - aim: The highest ratio that meets the aim, if the row has one.
    ///   - note: What the reader should know about the row, such as why its baseline is missing.
    public init(title: String, subject: Measurement, baseline: Measurement?, aim: Double?, note: String? = nil) {
        self.title = title
        self.subject = subject
        self.baseline = baseline
        self.aim = aim
        self.note = note
    }

    /// A row without a natural peer, compared with its budget: the ratio is the fraction of the
    /// budget used, and the aim is to stay within it.
    ///
    /// - Parameters:
    ///   - title: What the row measures; say that it is compared with a budget.
    ///   - subject: PageScript's measurement.
    ///   - budget: The aim, in the subject's unit.
    public static func budget(title: String, subject: Measurement, budget: Double) -> ComparisonRow {
        ComparisonRow(title: title, subject: subject, baseline: .budget(budget, unit: subject.unit), aim: 1)
    }

    /// subject / baseline, by medians; `nil` without a baseline.
    public var ratio: Double? { baseline.map { subject.median / $0.median } }

    /// Whether the aim is met; `nil` when the row has no aim or no baseline.
    public var meetsAim: Bool? {
        guard let aim, let ratio else { return nil }
        return ratio <= aim
    }
}
