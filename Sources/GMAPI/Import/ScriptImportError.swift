import UserScripts

/// Why `scripts import` stopped: the source cannot be read, the download failed or is not a
/// userscript, or the backup is damaged. Then nothing was written; only ``storage(_:)`` comes
/// after the import started writing.
public enum ScriptImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or folder cannot be read (for instance, it does not exist).
    case library(LibraryError)
    /// The address cannot be read, or is not http or https.
    case unsupportedAddress(String, reason: String)
    /// The download failed: the server answered with a status other than 2xx, the connection
    /// was refused, it timed out, it was too large, or it redirected where PageScript does not go.
    case download(address: String, failure: DependencyFailure)
    /// What the address holds is not UTF-8 text.
    case notText(address: String)
    /// What the address holds is a zip archive (a backup, say), not a script.
    case zipArchive(address: String)
    /// What the address holds has no `// ==UserScript==` block.
    case notAUserScript(address: String)
    /// The backup cannot be read: its zip archive is damaged or refused, or a part of it is not
    /// what its manager writes.
    case unreadableBackup(path: String, reason: String)
    /// A value or a record could not be written while a backup was restored; what was imported
    /// before it stays.
    case storage(String)

    /// What went wrong, and that nothing was imported.
    public var description: String {
        switch self {
        case .library(let error):
            error.description
        case .unsupportedAddress(let address, let reason):
            "\(address) cannot be imported: \(reason)"
        case .download(let address, .tooLarge(_, let limit)):
            "\(address) is larger than \(ReadableAmount.bytes(limit)), PageScript's limit for a script; nothing was imported"
        case .download(_, let failure):
            "\(failure); nothing was imported"
        case .notText(let address):
            "\(address) does not hold UTF-8 text; nothing was imported"
        case .zipArchive(let address):
            "\(address) \(ZipArchiveText.notAScript); save it to a file first. Nothing was imported"
        case .notAUserScript(let address):
            "\(address) does not hold a userscript (it has no // ==UserScript== block); nothing was imported"
        case .unreadableBackup(let path, let reason):
            "\(path) cannot be imported: \(reason); nothing was written"
        case .storage(let reason):
            "the import stopped: \(reason)"
        }
    }
}
