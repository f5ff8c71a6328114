import Foundation
import PageRuntime
import SystemSupport

/// One line of a batch's output: what happened to one input entry.
///
/// The object carries the members of `pagescript run --json` for the same page and script
/// (``ReportRenderer/json(of:)``: `url`, `title`, `value`, `console`, `dialogs`, `error`; in
/// library mode `url`, `title`, `scripts`, `error`), between the entry's identity (`index`,
/// `input`, `requested`, `status`) and what the batch adds (`httpStatus`, `startedAt`,
/// `durationMs`, `attempts`, `engine`). `requested` is the address PageScript opened for the
/// input (`null` when it is not one); `url` is the address of the document the values come from
/// (a server's redirect, or the page's own script, may have led there), or where the page went
/// instead.
///
/// When the script could not run or did not finish, `status` says why (``RecordStatus``) and
/// `error` is `{"name","message","line":null,"column":null}` with the name from
/// ``RecordStatus/errorName``, after what the script produced before it stopped.
///
/// ```swift
/// let result = ScriptResult(context: try PageContext(url: "https://example.com/a", title: "A"), value: 42, console: [], error: nil)
/// let record = BatchRecord(index: 7, input: "https://example.com/a", requested: "https://example.com/a", status: .ok,
///                          page: .completed(.script(result, screenshot: nil)),
///                          httpStatus: 200, startedAt: Date(), duration: 0.087, attempts: 1, engine: "webkit")
/// record.line   // {"index":7,"input":"https://example.com/a","requested":"https://example.com/a","status":"ok","url":...,"engine":"webkit"}
/// ```
public struct BatchRecord: Sendable {
    /// The entry's index in the input (see ``BatchEntry``).
    public let index: Int
    /// The input line, as read (a row's `url`).
    public let input: String
    /// A row's other cells or members (``BatchEntry/fields``); `nil` for a URL list's line.
    public let fields: JSONValue?
    /// The address opened for the input; `nil` when the input is not one.
    public let requested: String?
    /// How the page ended.
    public let status: RecordStatus
    /// What happened on the page: the members `pagescript run --json` prints for it.
    public let page: PageReport
    /// The HTTP status of the page's main document, when the engine reports it.
    public let httpStatus: Int?
    /// When the first attempt started.
    public let startedAt: Date
    /// Seconds from ``startedAt`` to the end of the last attempt.
    public let duration: Double
    /// How many times the page was tried (0 for an entry that is not a URL).
    public let attempts: Int
    /// The engine or remote browser the page ran in.
    public let engine: String

    /// Creates a record.
    public init(index: Int, input: String, fields: JSONValue? = nil, requested: String? = nil, status: RecordStatus, page: PageReport,
                httpStatus: Int?, startedAt: Date, duration: Double, attempts: Int, engine: String) {
        self.index = index
        self.input = input
        self.fields = fields
        self.requested = requested
        self.status = status
        self.page = page
        self.httpStatus = httpStatus
        self.startedAt = startedAt
        self.duration = duration
        self.attempts = attempts
        self.engine = engine
    }

    /// What happened on a page on which the script could not run or did not finish.
    ///
    /// - Parameters:
    ///   - status: Why not.
    ///   - message: The explanation, for `error.message`.
    ///   - url: The page's address, when the browser got that far (where it went instead, for
    ///     ``RecordStatus/navigatedAway``).
    ///   - title: The page's title, when known.
    ///   - libraryMode: Whether the batch runs library scripts (`scripts` instead of `value`,
    ///     `console` and `dialogs`).
    ///   - partial: What the script produced before it stopped (console lines, dialogs).
    public static func failedPage(status: RecordStatus, message: String, url: String?, title: String?, libraryMode: Bool,
                                  partial: ScriptResult? = nil) -> PageReport {
        .unfinished(UnfinishedRun(errorName: status.errorName, message: message, url: url, title: title, partial: partial, isLibrary: libraryMode))
    }

    /// The version of the records' layout, their `schema` member: it changes when a member's
    /// meaning does or one goes, not when one is added.
    public static let schemaVersion = 1

    /// The record as one JSON object, in the documented field order.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "index", value: .integer(Int64(index))),
            (key: "input", value: .string(input)),
        ]
        if let fields { members.append((key: "fields", value: fields)) }
        members += [
            (key: "requested", value: requested.map { .string($0) } ?? .null),
            (key: "status", value: .string(status.rawValue)),
        ]
        // The page's own `httpStatus` member is the record's, placed with what the batch adds.
        var pageStatus: Int?
        if case let .object(fields) = ReportRenderer.json(of: page) {
            pageStatus = fields.first { $0.key == "httpStatus" }?.value.intValue
            members += fields.filter { $0.key != "httpStatus" }
        }
        members += [
            (key: "httpStatus", value: (httpStatus ?? pageStatus).map { .integer(Int64($0)) } ?? .null),
            (key: "startedAt", value: .string(Self.timestamp(startedAt))),
            (key: "durationMs", value: .integer(Int64((duration * 1000).rounded()))),
            (key: "attempts", value: .integer(Int64(attempts))),
            (key: "engine", value: .string(engine)),
            (key: "schema", value: .integer(Int64(Self.schemaVersion))),
        ]
        return .object(members)
    }

    /// The record as one line of JSON text, without the newline. Safe on a terminal: every
    /// control character a page could send is escaped.
    public var line: String {
        json.serialized
    }

    /// `date` as ISO 8601 in UTC with milliseconds, e.g. `2025-06-01T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds % 1000), 3))Z"
    }
}
