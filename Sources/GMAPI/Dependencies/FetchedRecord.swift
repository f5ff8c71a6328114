import Foundation

/// What was fetched for one script, in `.pagescript-fetched/<id>.json`: each `@require` and
/// `@resource` URL (as written) with the cached file it maps to, the last failure of each URL
/// that could not be fetched, and the script file as it was last installed or updated (for
/// `scripts update`, which never overwrites a file edited since).
///
/// ```json
/// {
///   "failures" : { "https://cdn.example/gone.js" : { "at" : "2026-05-01T10:00:00Z", "reason" : "... answered HTTP 404 Not Found" } },
///   "files" : {
///     "https://code.jquery.com/jquery-3.7.1.min.js" : {
///       "contentType" : "application/javascript", "fetchedAt" : "2026-05-01T10:00:00Z",
///       "fetchedFrom" : "https://code.jquery.com/jquery-3.7.1.min.js", "sha256" : "fc9a93dd...", "size" : 87533
///     }
///   },
///   "format" : 1,
///   "installed" : { "at" : "2026-05-01T10:00:00Z", "from" : "https://example.com/tidy.user.js", "sha256" : "9f2c..." }
/// }
/// ```
struct FetchedRecord: Codable, Equatable, Sendable {
    static let currentFormat = 1

    struct File: Codable, Equatable, Sendable {
        var sha256: String
        var size: Int
        var contentType: String?
        var fetchedFrom: String
        var fetchedAt: String
    }

    struct Failure: Codable, Equatable, Sendable {
        var reason: String
        var at: String
    }

    struct Installed: Codable, Equatable, Sendable {
        var sha256: String
        var from: String?
        var at: String
    }

    var format = FetchedRecord.currentFormat
    /// Declared URL (with fragment) to the cached file.
    var files: [String: File] = [:]
    /// Declared URL to why its last fetch failed; removed when a fetch succeeds.
    var failures: [String: Failure] = [:]
    /// The script file as last installed or updated by PageScript.
    var installed: Installed?

    static func timestamp(_ date: Date = Date()) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
