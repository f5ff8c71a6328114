/// What PageScript says when it is given a zip archive where it expects a script's text: a
/// manager's backup is a common thing to reach for, and "not UTF-8" would not say what it is.
///
/// ```swift
/// let message = ZipArchiveText.isZipArchive(bytes) ? "backup.zip " + ZipArchiveText.notAScript : nil
/// ```
public enum ZipArchiveText {
    /// Whether `bytes` are a zip archive: they start with a zip record (a file's header, an empty
    /// archive's end, a split archive's marker), or end with an archive's end record (a zip
    /// behind a program that unpacks it).
    public static func isZipArchive(_ bytes: [UInt8]) -> Bool {
        let starts: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06], [0x50, 0x4B, 0x07, 0x08]]
        if starts.contains(where: { bytes.starts(with: $0) }) { return true }
        // The end record has a fixed length, followed by a comment whose length it gives in two bytes.
        guard bytes.count >= 22 else { return false }
        var index = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65535)
        while index >= lowest {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06,
               index + 22 + Int(bytes[index + 20]) + Int(bytes[index + 21]) << 8 == bytes.count {
                return true
            }
            index -= 1
        }
        return false
    }

    /// What zip archives are for, after a file's name: `is a zip archive, not a script: ...`.
    public static let notAScript = "is a zip archive, not a script: `pagescript scripts import FILE.zip` imports "
        + "a Tampermonkey or Violentmonkey backup (scripts, values and switches) or the .user.js files in a zip"
}
