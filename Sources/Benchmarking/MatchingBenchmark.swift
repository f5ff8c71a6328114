import Foundation
import UserScripts

/// Row 4 of the benchmark table: which scripts run on a page, for libraries far larger than
/// anyone keeps by hand, and a library read from disk.
///
/// Nothing else answers these questions, so each row is compared with its budget (the ratio is
/// the fraction of the budget used):
///
/// - one lookup (``PageURL`` parsed from text, then ``ScriptMatcher/matches(_:)``) against a
///   matcher built once from a ``SyntheticLibrary`` of 1,000, 10,000 and 100,000 scripts; the
///   budget is 20 us at every size (the issue asks for it at 10,000);
/// - a cold load of a 1,000-file library: a new ``ScriptLibrary`` on a folder of 1,000
///   `.user.js` files reads, parses and indexes them all, then answers
///   ``ScriptLibrary/which(url:isFrame:includingInactive:)`` for one page (budget 50 ms). The
///   files are in the operating system's page cache: this is PageScript's cost, not the disk's.
public enum MatchingBenchmark {
    /// The budget for one lookup.
    public static let lookupBudget = 20e-6
    /// The budget for loading a 1,000-file library.
    public static let loadBudget = 50e-3

    /// The sizes of the libraries looked up in.
    public static let librarySizes = [1_000, 10_000, 100_000]

    /// Measures the lookup rows and the cold-load row.
    ///
    /// - Parameters:
    ///   - batches: Samples per lookup row; each averages as many lookups as fill about 10 ms.
    ///   - loadRepetitions: Cold loads timed.
    ///   - libraryFolder: A folder holding a 1,000-file ``SyntheticLibrary`` (see
    ///     ``SyntheticLibrary/write(to:)``).
    public static func rows(batches: Int, loadRepetitions: Int, libraryFolder: URL) throws -> [ComparisonRow] {
        var rows: [ComparisonRow] = []
        for size in librarySizes {
            let matcher = ScriptMatcher(try SyntheticLibrary(count: size).matcherInput)
            let lookup = Measurement.timeCalibrated("lookup in \(size) scripts", batches: batches) {
                (try? PageURL(SyntheticLibrary.lookupURL)).map { matcher.matches($0) }
            }
            rows.append(.budget(title: "match one URL, \(grouped(size)) scripts x 3 patterns (vs budget 20 us)",
                                subject: lookup, budget: lookupBudget))
        }
        let url = try PageURL(SyntheticLibrary.lookupURL)
        let load = try Measurement.timeSynchronously("cold library load", repetitions: loadRepetitions, warmup: 1) {
            _ = try ScriptLibrary(directory: libraryFolder).which(url: url)
        }
        rows.append(.budget(title: "cold load of a 1,000-file library + one match (vs budget 50 ms)", subject: load, budget: loadBudget))
        return rows
    }

    /// `100000` as `100,000`.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
            index -= 3
        }
        return digits
    }
}
