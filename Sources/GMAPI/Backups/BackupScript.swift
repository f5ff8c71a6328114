import SystemSupport

/// One script of a manager's backup, with what the backup keeps about it, read and checked
/// before anything is written.
struct BackupScript: Sendable {
    /// The script's entry in the archive (`Tidy.user.js`).
    let entryName: String
    /// The script, byte for byte.
    let bytes: [UInt8]
    /// Whether the manager ran it; `nil` when the backup does not say.
    let isEnabled: Bool?
    /// The address the manager installed it from, which `scripts update` falls back on.
    let origin: String?
    /// Its `GM_setValue` values, decoded (``ManagerValueEncoding``).
    let values: [(key: String, value: JSONValue)]
    /// What of it is not carried over, and why: settings PageScript has no place for, values
    /// that cannot be read.
    let notCarried: [String]
}
