/// A userscript manager's backup, read whole from its zip archive: its scripts with their
/// switches, origins and values, and what PageScript leaves behind.
///
/// Every part is read, inflated, CRC-checked and parsed here, before the library is touched: a
/// damaged archive or a part that cannot be read refuses the whole backup.
///
/// ```swift
/// let backup = try ManagerBackup(archive: try ZipArchive(bytes: bytes))
/// backup.kind          // .violentmonkey
/// backup.scripts       // [BackupScript]
/// ```
struct ManagerBackup: Sendable {
    /// Which manager wrote it.
    enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A zip with a `violentmonkey` entry (Violentmonkey's "Export to zip").
        case violentmonkey
        /// A zip with `NAME.options.json` and `NAME.storage.json` beside the scripts
        /// (Tampermonkey's "Zip" backup).
        case tampermonkey
        /// Any other zip: its `.user.js` files are imported as they are.
        case plainScripts

        /// The manager's name, or what the archive is.
        var description: String {
            switch self {
            case .violentmonkey: "Violentmonkey"
            case .tampermonkey: "Tampermonkey"
            case .plainScripts: "a zip of userscripts"
            }
        }
    }

    /// Which manager wrote it.
    let kind: Kind
    /// Its scripts, in entry-name order.
    let scripts: [BackupScript]
    /// What is not carried over that belongs to no one script (the manager's own settings, the
    /// scripts' order, entries that are not read).
    let notCarried: [String]

    /// Reads a backup; which manager wrote it is told by its entries.
    init(archive: ZipArchive) throws(BackupReadError) {
        let names = archive.filesByName.keys
        if names.contains(where: { $0.lowercased() == ViolentmonkeyBackup.entryName }) {
            kind = .violentmonkey
            (scripts, notCarried) = try ViolentmonkeyBackup.read(archive)
        } else if names.contains(where: { $0.hasSuffix(TampermonkeyBackup.optionsSuffix) || $0.hasSuffix(TampermonkeyBackup.storageSuffix) }) {
            kind = .tampermonkey
            (scripts, notCarried) = try TampermonkeyBackup.read(archive)
        } else {
            kind = .plainScripts
            var scripts: [BackupScript] = []
            for entry in archive.entries where !entry.isDirectory && entry.name.hasSuffix(BackupText.scriptSuffix) {
                scripts.append(BackupScript(entryName: entry.name, bytes: try archive.checkedContents(of: entry), isEnabled: nil,
                                            origin: nil, values: [], notCarried: []))
            }
            self.scripts = scripts.sorted { $0.entryName < $1.entryName }
            let unread = names.filter { !$0.hasSuffix(BackupText.scriptSuffix) }
            notCarried = unread.isEmpty ? [] : [BackupText.notRead(Array(unread))]
        }
    }
}
