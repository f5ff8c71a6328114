import Foundation

/// A CSV file as Python's `csv` module reads it, so that a test's reading of PageScript's CSV
/// does not come from the code it tests.
///
/// ```swift
/// let rows = try ReferenceCSV.rows(of: "/tmp/out.csv")   // [["index": "0", "url": "https://…"], …]
/// ```
public enum ReferenceCSV {
    /// Every row of the CSV file at `path`, by its header's column names (`csv.DictReader`).
    public static func rows(of path: String) throws -> [[String: String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import csv, json, sys; print(json.dumps(list(csv.DictReader(open(sys.argv[1], newline='')))))", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ReferenceCSVError.unreadable(path: path, status: process.terminationStatus) }
        return try JSONDecoder().decode([[String: String]].self, from: data)
    }
}

/// Why Python could not read a CSV file.
public enum ReferenceCSVError: Error {
    /// Python's `csv` module failed on the file, exiting with `status`.
    case unreadable(path: String, status: Int32)
}
