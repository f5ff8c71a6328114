import Foundation
import UserScripts

/// Row 4 of the benchmark table: which scripts run on a page, for libraries far larger than
/// anyone keeps by hand, and a library read from disk.
///
/// Nothing else answers these questions, so each row is compared with its budget (the ratio is
/// the fraction of the budget used):
///
/// - one lookup (``PageURL`` parsed from text, then ``ScriptMatcher/matches(_:)``) against a
///   matcher built once from a ``SyntheticLibrary`` of 1,000, 10,000 and 100,000 scripts, with
///   `@include` regular expressions, `.tld` globs and exclusions among them; the budget is 20 us at
///   every size (issues 11 and 15);
/// - a cold load of a 1,000-file and of a 10,000-file library: a new ``ScriptLibrary`` on a folder
///   of real-world-sized `.user.js` files reads its index and every file's status, builds its
///   matcher, and answers ``ScriptLibrary/which(url:isFrame:includingInactive:)`` for one page,
///   reading the Public Suffix List afresh when a `.tld` rule needs it (budgets 25 ms and 250 ms).
///   The files are in the operating system's page cache, and the index was written by a first
///   load that is not timed: this is PageScript's cost at a process start, not the disk's.
public enum MatchingBenchmark {
    /// The budget for one lookup.
    public static let lookupBudget = 20e-6
    /// The budget for loading a 1,000-file library.
    public static let loadBudget = 25e-3
    /// The budget for loading a 10,000-file library.
    public static let largeLoadBudget = 250e-3

    /// The sizes of the libraries looked up in.
    public static let librarySizes = [1_000, 10_000, 100_000]

    /// Measures the lookup rows and the cold-load rows.
    ///
    /// - Parameters:
    ///   - batches: Samples per lookup row; each averages as many lookups as fill about 10 ms.
    ///   - loadRepetitions: Cold loads timed per library.
    ///   - libraryFolder: A folder holding a 1,000-file ``SyntheticLibrary`` (see
    ///     ``SyntheticLibrary/write(to:)``).
    ///   - largeLibraryFolder: A folder holding a 10,000-file one.
    public static func rows(batches: Int, loadRepetitions: Int, libraryFolder: URL, largeLibraryFolder: URL) throws -> [ComparisonRow] {
        var rows: [ComparisonRow] = []
        for size in librarySizes {
            let matcher = ScriptMatcher(SyntheticLibrary(count: size).matcherInput)
            let lookup = Measurement.timeCalibrated("lookup in \(size) scripts", batches: batches) {
                (try? PageURL(SyntheticLibrary.lookupURL)).map { matcher.matches($0) }
            }
            rows.append(.budget(title: "match one URL, \(grouped(size)) scripts, regex and .tld rules among them (vs budget 20 us)",
                                subject: lookup, budget: lookupBudget))
        }
        for (folder, count, budget) in [(libraryFolder, 1_000, loadBudget), (largeLibraryFolder, 10_000, largeLoadBudget)] {
            let load = try coldLoad(of: folder, repetitions: loadRepetitions)
            rows.append(.budget(title: "cold load of a \(grouped(count))-file library + one match (vs budget \(Int(budget * 1_000)) ms)",
                                subject: load, budget: budget))
        }
        return rows
    }

    /// Times new libraries on `folder`, each answering one lookup. Each gets the Public Suffix List
    /// under a path of its own, so that it is read again as a new process would read it.
    static func coldLoad(of folder: URL, repetitions: Int) throws -> Measurement {
        let url = try PageURL(SyntheticLibrary.lookupURL)
        let lists = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-psl-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: lists) }
        var paths: [String] = []
        for index in 0...repetitions {
            let path = lists.appendingPathComponent("list-\(index).dat").path(percentEncoded: false)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: PublicSuffixList.systemPath)
            paths.append(path)
        }
        var next = 0
        return try Measurement.timeSynchronously("cold library load", repetitions: repetitions, warmup: 1) {
            defer { next += 1 }
            _ = try ScriptLibrary(directory: folder, publicSuffixListPath: paths[next]).which(url: url)
        }
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
