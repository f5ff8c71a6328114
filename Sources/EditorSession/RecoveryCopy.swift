import Foundation
import TerminalUI
import UserScripts

/// Unsaved text the editor could not give back to the user, kept in a file of its own.
///
/// When editing ends without the user's say (the browser died, the terminal went away), the text
/// on screen is written to the library's `.recovery/` folder, never over a script, and the user
/// is told where. Each copy gets a new file; nothing is overwritten.
///
/// ```swift
/// let file = try RecoveryCopy.write(outcome.script, name: "example.com", into: library.directory)
/// ```
public enum RecoveryCopy {
    /// The folder inside the library that holds recovery copies.
    public static let folderName = ".recovery"

    /// Writes `text` atomically to a new file named after `name` and the time, and returns it.
    public static func write(_ text: String, name: String, into libraryDirectory: URL, now: Date = Date()) throws -> URL {
        let folder = libraryDirectory.appendingPathComponent(folderName, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = Self.timestamp(now)
        let stem = Self.slug(name) + "-" + stamp
        var file = folder.appendingPathComponent(stem + ".js")
        var number = 2
        while FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) {
            file = folder.appendingPathComponent("\(stem)-\(number).js")
            number += 1
        }
        try Data(text.utf8).write(to: file, options: .atomic)
        return file
    }

    /// Whether an editing session that ended this way leaves text to keep: it had unsaved
    /// changes and the user did not choose to quit.
    public static func isNeeded(after outcome: EditorOutcome) -> Bool {
        outcome.hasUnsavedChanges && outcome.reason != .quit
    }

    static func slug(_ name: String) -> String {
        let kept = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(kept).split(separator: "-").joined(separator: "-")
        return joined.isEmpty ? "script" : String(joined.prefix(40))
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
