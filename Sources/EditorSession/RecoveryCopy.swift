import Foundation
import TerminalUI
import UserScripts

/// Unsaved text the editor could not give back to the user, kept in a file of its own.
///
/// When editing ends without the user's say (the browser died, the terminal went away), the text
/// on screen is written to the library's `.recovery/` folder, never over a script, and the user
/// is told where. Each copy gets a new file; nothing is overwritten. A copy is as private as the
/// library's own files (`0600`, in a `0700` folder). The next editor on the same script offers the
/// newest copy back (``latest(for:in:differingFrom:)``); no copy is ever removed but by the user.
///
/// ```swift
/// let file = try RecoveryCopy.write(outcome.script, name: "example.com", into: library.directory)
/// let offer = RecoveryCopy.latest(for: "example.com", in: library.directory, differingFrom: savedText)
/// ```
public enum RecoveryCopy {
    /// The folder inside the library that holds recovery copies.
    public static let folderName = ".recovery"

    /// Writes `text` atomically to a new file named after `name` and the time, and returns it.
    public static func write(_ text: String, name: String, into libraryDirectory: URL, now: Date = Date()) throws -> URL {
        let folder = libraryDirectory.appendingPathComponent(folderName, isDirectory: true)
        try FileSystem.createDirectory(atPath: folder.path(percentEncoded: false))
        let stamp = Self.timestamp(now)
        let stem = Self.slug(name) + "-" + stamp
        var file = folder.appendingPathComponent(stem + ".js")
        var number = 2
        while FileManager.default.fileExists(atPath: file.path(percentEncoded: false)) {
            file = folder.appendingPathComponent("\(stem)-\(number).js")
            number += 1
        }
        try FileSystem.writeAtomically(Array(text.utf8), toPath: file.path(percentEncoded: false), newFileMode: FileSystem.privateFileMode)
        return file
    }

    /// The newest copy kept for the script called `name` whose text is not `current` (a copy
    /// already restored and saved is not offered again), as the editor offers it; `nil` when
    /// there is none.
    public static func latest(for name: String, in libraryDirectory: URL, differingFrom current: String) -> RecoveredText? {
        let folder = libraryDirectory.appendingPathComponent(folderName, isDirectory: true)
        let prefix = Self.slug(name) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        let copies = names.compactMap { file -> (stamp: String, number: Int, file: String)? in
            guard file.hasPrefix(prefix), file.hasSuffix(".js") else { return nil }
            let parts = file.dropFirst(prefix.count).dropLast(3).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  parts[0].count == 8, parts[1].count == 6 else { return nil }
            return (String(parts[0]) + "-" + String(parts[1]), parts.count == 3 ? Int(parts[2]) ?? 0 : 1, file)
        }
        for copy in copies.sorted(by: { ($0.stamp, $0.number) > ($1.stamp, $1.number) }) {
            let file = folder.appendingPathComponent(copy.file)
            guard let data = FileManager.default.contents(atPath: file.path(percentEncoded: false)),
                  let text = String(data: data, encoding: .utf8), text != current else { continue }
            return RecoveredText(text: text, file: file.path(percentEncoded: false), kept: Self.keptDescription(copy.stamp))
        }
        return nil
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

    /// `20250101-120000` as `2025-01-01 12:00`.
    static func keptDescription(_ stamp: String) -> String {
        let digits = Array(stamp.filter(\.isNumber))
        guard digits.count == 14 else { return stamp }
        let part = { (range: Range<Int>) in String(digits[range]) }
        return "\(part(0..<4))-\(part(4..<6))-\(part(6..<8)) \(part(8..<10)):\(part(10..<12))"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
