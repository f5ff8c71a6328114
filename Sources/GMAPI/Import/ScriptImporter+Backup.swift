import Foundation
import SystemSupport
import UserScripts

extension ScriptImporter {
    /// Reads the backup at `path` whole, then imports its scripts with their values, switches
    /// and origins (see the type's discussion).
    func restoreBackup(atPath path: String, cache: DependencyCache) throws(ScriptImportError) -> (notes: [String], entries: [ScriptImportResult.Entry]) {
        let backup = try readBackup(atPath: path)
        let archiveURL = URL(fileURLWithPath: path)
        let values = ScriptValueStore(libraryDirectory: library.directory)
        var entries: [ScriptImportResult.Entry] = []
        for script in backup.scripts {
            let entry = try wrapped { () throws(LibraryError) in
                try library.importScript(bytes: script.bytes, source: archiveURL.appendingPathComponent(script.entryName))
            }
            try recordInstalled(entry, bytes: script.bytes, from: script.origin, in: cache)
            let id: ScriptID
            let isNew: Bool
            switch entry.outcome {
            case .imported(let stored): (id, isNew) = (stored.id, true)
            case .updated(let stored, _, _): (id, isNew) = (stored.id, false)
            case .alreadyInLibrary(let existing): (id, isNew) = (existing, false)
            case .refused:
                entries.append(ScriptImportResult.Entry(report: entry, notes: []))
                continue
            }
            var notes = try restoreValues(script.values, of: id, into: values)
            notes += try restoreSwitch(script.isEnabled, of: id, isNew: isNew, manager: backup.kind)
            if let origin = script.origin {
                notes.append("installed from \(origin): `pagescript scripts update` checks there when the script names no @downloadURL")
            }
            entries.append(ScriptImportResult.Entry(report: entry, notes: notes + script.notCarried))
        }
        let count = backup.scripts.count
        let summary = switch backup.kind {
        case .plainScripts where count == 0:
            "a zip archive with no userscript: `scripts import` reads a Tampermonkey or Violentmonkey backup, "
                + "or the .user.js files in a zip"
        case .plainScripts: "a zip archive with \(count) userscript\(count == 1 ? "" : "s")"
        case .violentmonkey, .tampermonkey: "a \(backup.kind) backup with \(count) script\(count == 1 ? "" : "s")"
        }
        return ([summary] + backup.notCarried, entries)
    }

    /// The backup at `path`, read and checked whole.
    private func readBackup(atPath path: String) throws(ScriptImportError) -> ManagerBackup {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= Self.maximumBackupBytes else {
            throw .unreadableBackup(path: path, reason: "it is larger than \(ReadableAmount.bytes(Self.maximumBackupBytes)), the most PageScript reads")
        }
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.contents(atPath: path)
        } catch {
            throw .unreadableBackup(path: path, reason: error.message)
        }
        guard let bytes else { throw .library(.invalidSource(path: path, reason: "no such file or folder")) }
        do {
            return try ManagerBackup(archive: try ZipArchive(bytes: bytes, limits: limits))
        } catch let error as ZipError {
            throw .unreadableBackup(path: path, reason: error.description)
        } catch let error as BackupReadError {
            throw .unreadableBackup(path: path, reason: error.description)
        } catch {
            throw .unreadableBackup(path: path, reason: "\(error)")
        }
    }

    /// Writes the backup's values over the script's, key by key; a key the library had is
    /// replaced, and the line says what it held.
    private func restoreValues(_ restored: [(key: String, value: JSONValue)], of id: ScriptID, into store: ScriptValueStore) throws(ScriptImportError) -> [String] {
        guard !restored.isEmpty else { return [] }
        var notes = ["\(restored.count) value\(restored.count == 1 ? "" : "s") restored"]
        do {
            let current = try store.values(of: id)
            for pair in restored {
                if let old = current[pair.key], old != pair.value {
                    notes.append("the value \(JSONValue.string(pair.key).serialized) replaces the library's, which was \(old.serialized)")
                }
            }
            try store.apply(restored.map { ValueChange.set(key: $0.key, value: $0.value) }, to: id)
        } catch {
            throw .storage(error.description)
        }
        return notes
    }

    /// Sets the script's switch as in the backup; says so when it is off, or when it changed one
    /// the library had.
    private func restoreSwitch(_ isEnabled: Bool?, of id: ScriptID, isNew: Bool, manager: ManagerBackup.Kind) throws(ScriptImportError) -> [String] {
        guard let isEnabled else { return [] }
        let wasEnabled = try wrapped { () throws(LibraryError) in try library.script(id: id).isEnabled }
        if wasEnabled != isEnabled {
            try wrapped { () throws(LibraryError) in try library.setEnabled(isEnabled, id: id) }
        }
        let before = isNew || wasEnabled == isEnabled ? "" : " (it was \(wasEnabled ? "enabled" : "disabled") in the library)"
        if !isEnabled {
            return ["disabled, as in \(manager)\(before): it runs only on demand; `pagescript scripts enable \(id)` switches it on"]
        }
        return before.isEmpty ? [] : ["enabled, as in \(manager)\(before)"]
    }
}
