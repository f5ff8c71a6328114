import Foundation
import SystemSupport

/// What an earlier run of a batch already recorded in its output file, for `--resume`.
///
/// Every complete line must be a batch record (an object with an integer `index`, a string
/// `input` and a known `status`); the entries they name are done and are not run again. The last
/// line is the exception: a line without its newline, or one that is not a record, is what a
/// killed process (or a power cut) leaves behind, so it is dropped (``validLength`` is where the
/// file is cut) and its entry runs again. A bad line anywhere else means the file is not a batch's
/// output, or was edited: PageScript refuses to append to it rather than guess.
///
/// The ledger keeps a 32-bit fingerprint of each done entry's input text, indexed by entry, so
/// that resuming with a different URL list is caught (``matches(_:)``); that is 4 bytes per
/// entry, 4 MB for a million.
///
/// ```swift
/// let ledger = try ResumeLedger.read(path: "results.jsonl")
/// ledger.isDone(7)          // true when entry 7 has a record
/// ledger.validLength        // bytes to keep before appending
/// ```
public struct ResumeLedger: Sendable {
    /// Fingerprints of done entries by index; 0 means not done.
    private let fingerprints: [UInt32]
    /// How many records the file holds.
    public let recordCount: Int
    /// The records' statuses, counted.
    public let statusCounts: [RecordStatus: Int]
    /// The length of the file's whole records, in bytes: where to cut it before appending.
    public let validLength: UInt64
    /// Whether a torn last line was found (it will be cut off and its entry run again).
    public let hasTornLastLine: Bool
    /// A CSV file's columns, from its header; `nil` for JSON lines, or a CSV file with no header
    /// yet.
    public let tableColumns: [String]?

    /// A ledger of nothing done, for a new file.
    public static let empty = ResumeLedger(fingerprints: [], recordCount: 0, statusCounts: [:], validLength: 0, hasTornLastLine: false,
                                           tableColumns: nil)

    /// Whether entry `index` already has a record.
    public func isDone(_ index: Int) -> Bool {
        index >= 0 && index < fingerprints.count && fingerprints[index] != 0
    }

    /// Whether `entry` is the entry that was recorded under its index (same input text); true for
    /// an entry that is not done.
    public func matches(_ entry: BatchEntry) -> Bool {
        guard isDone(entry.index) else { return true }
        return fingerprints[entry.index] == Self.fingerprint(entry.text)
    }

    /// Reads the output file at `path`, written as `format` says; a file that does not exist yet
    /// is an empty ledger. A CSV file's first row must be a header naming `index`, `input` and
    /// `status` (``tableColumns``).
    ///
    /// - Throws: ``ResumeError``, when the file cannot be read or is not a batch's output.
    public static func read(path: String, format: OutputFormat = .jsonLines) throws(ResumeError) -> ResumeLedger {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return .empty }
            throw .unreadable(path: path, reason: errnoDescription(errno))
        }
        defer { close(descriptor) }
        var scanner = LineScanner(descriptor: descriptor)
        var fingerprints: [UInt32] = []
        var counts: [RecordStatus: Int] = [:]
        var recordCount = 0
        var validLength: UInt64 = 0
        var torn = false
        var linesRead = 0
        var columns: [String]?
        while let line = try nextUnit(of: &scanner, path: path, format: format, linesRead: &linesRead) {
            let lineNumber = line.firstLine
            if format == .csv, columns == nil, line.complete {
                guard let header = TableRow.cells(of: line.bytes, delimiter: UInt8(ascii: ",")),
                      ["index", "input", "status"].allSatisfy(header.contains) else {
                    throw .notABatchOutput(path: path, line: lineNumber, reason: "it is not the header of a batch's CSV records")
                }
                columns = header
                validLength = scanner.offset
                continue
            }
            let record: (index: Int, input: String, status: RecordStatus)? = if !line.complete {
                nil
            } else if let columns {
                parseRow(line.bytes, columns: columns)
            } else {
                parse(line.bytes)
            }
            guard let record else {
                if try scanner.isAtEnd(path: path) {
                    torn = true
                    break
                }
                throw .notABatchOutput(path: path, line: lineNumber, reason: line.complete ? "it is not a batch record" : "it is cut short")
            }
            if record.index < fingerprints.count, fingerprints[record.index] != 0 {
                throw .notABatchOutput(path: path, line: lineNumber, reason: "entry \(record.index) is recorded a second time")
            }
            if record.index >= fingerprints.count {
                fingerprints.append(contentsOf: repeatElement(0, count: record.index + 1 - fingerprints.count))
            }
            fingerprints[record.index] = fingerprint(record.input)
            counts[record.status, default: 0] += 1
            recordCount += 1
            validLength = scanner.offset
        }
        return ResumeLedger(fingerprints: fingerprints, recordCount: recordCount, statusCounts: counts,
                            validLength: validLength, hasTornLastLine: torn, tableColumns: columns)
    }

    /// The next record's text: a line, or for CSV the lines of a row whose quoted cell holds line
    /// breaks. `complete` is false when the file ends before the record does; `firstLine` is
    /// where it starts. `linesRead` counts the file's lines.
    private static func nextUnit(of scanner: inout LineScanner, path: String, format: OutputFormat,
                                 linesRead: inout Int) throws(ResumeError) -> (bytes: [UInt8], complete: Bool, firstLine: Int)? {
        guard var line = try scanner.next(path: path) else { return nil }
        linesRead += 1
        let firstLine = linesRead
        guard format == .csv else { return (line.bytes, line.complete, firstLine) }
        while line.complete, TableRow.endsInsideQuotes(line.bytes) {
            guard let more = try scanner.next(path: path) else { return (line.bytes, false, firstLine) }
            linesRead += 1
            line = (line.bytes + [0x0A] + more.bytes, more.complete)
        }
        return (line.bytes, line.complete, firstLine)
    }

    /// A CSV row under `columns`: its `index`, `input` and `status` cells.
    private static func parseRow(_ bytes: [UInt8], columns: [String]) -> (index: Int, input: String, status: RecordStatus)? {
        guard let cells = TableRow.cells(of: bytes, delimiter: UInt8(ascii: ",")), cells.count == columns.count else { return nil }
        func cell(_ name: String) -> String? { columns.firstIndex(of: name).map { cells[$0] } }
        guard let index = cell("index").flatMap({ Int($0) }), index >= 0, let input = cell("input"),
              let status = cell("status").flatMap(RecordStatus.init(rawValue:)) else { return nil }
        return (index, input, status)
    }

    /// The fingerprint of an input line: FNV-1a over its UTF-8, never 0 (0 marks "not done").
    static func fingerprint(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return hash == 0 ? 1 : hash
    }

    private static func parse(_ bytes: [UInt8]) -> (index: Int, input: String, status: RecordStatus)? {
        guard let value = try? JSONValue(parsing: bytes), let index = value["index"]?.intValue, index >= 0,
              let input = value["input"]?.stringValue,
              let statusName = value["status"]?.stringValue, let status = RecordStatus(rawValue: statusName) else { return nil }
        return (index, input, status)
    }
}

/// Why `--resume` could not use an output file.
public enum ResumeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// A line other than the last is not a batch record.
    case notABatchOutput(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read \(path) to resume: \(reason)"
        case let .notABatchOutput(path, line, reason):
            "\(path) is not the output of a pagescript batch (line \(line): \(reason)); PageScript will not append to it"
        }
    }
}

/// Splits a file into lines of any length, a chunk at a time, keeping track of the byte offset
/// after each complete line.
private struct LineScanner {
    let descriptor: Int32
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    /// The offset just after the last line returned.
    private(set) var offset: UInt64 = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line, and whether it ended with a newline.
    mutating func next(path: String) throws(ResumeError) -> (bytes: [UInt8], complete: Bool)? {
        var line: [UInt8] = []
        while true {
            if start < end {
                if let newline = chunk[start..<end].firstIndex(of: 0x0A) {
                    line.append(contentsOf: chunk[start..<newline])
                    offset += UInt64(newline + 1 - start)
                    start = newline + 1
                    return (line, true)
                }
                line.append(contentsOf: chunk[start..<end])
                offset += UInt64(end - start)
                start = end
            }
            if reachedEnd { return line.isEmpty ? nil : (line, false) }
            try refill(path: path)
        }
    }

    /// Whether nothing follows the line just returned.
    mutating func isAtEnd(path: String) throws(ResumeError) -> Bool {
        if start < end { return false }
        if !reachedEnd { try refill(path: path) }
        return start >= end && reachedEnd
    }

    private mutating func refill(path: String) throws(ResumeError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                start = 0
                end = count
                return
            }
            if count == 0 {
                reachedEnd = true
                return
            }
            if errno == EINTR { continue }
            throw .unreadable(path: path, reason: errnoDescription(errno))
        }
    }
}
