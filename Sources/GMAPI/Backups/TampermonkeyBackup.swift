import SystemSupport

/// Tampermonkey's "Zip" backup: for each script `NAME.user.js`, its settings in
/// `NAME.options.json` and its values in `NAME.storage.json`, and its `@require`/`@resource`
/// copies as `NAME.user.js-<md5>-<file>` with a `.requires.json` or `.resources.json` beside.
///
/// ```json
/// NAME.options.json: {"settings": {"enabled": true, "position": 3},
///                     "meta": {"name": "...", "uuid": "...", "modified": 1700000000000, "file_url": "https://..."},
///                     "options": {"check_for_updates": true, "run_at": null, "noframes": null, "comment": null, "tags": [],
///                                 "override": {"use_matches": [], "merge_matches": true, ...}, ...}}
/// NAME.storage.json: {"ts": 1700000000000, "data": {"theme": "sdark", "count": "n3"}}
/// ```
///
/// Values are encoded as ``ManagerValueEncoding`` says. `meta.file_url` is where Tampermonkey
/// installed the script from, and checks for updates when the script names no URL of its own.
/// Violentmonkey's importer reads these files the same way (`vm-import.vue`).
enum TampermonkeyBackup {
    static let optionsSuffix = ".options.json"
    static let storageSuffix = ".storage.json"

    /// The backup's scripts and what is not carried over.
    static func read(_ archive: ZipArchive) throws(BackupReadError) -> (scripts: [BackupScript], notCarried: [String]) {
        let files = archive.filesByName
        let scriptEntries = files.values.filter { $0.name.hasSuffix(BackupText.scriptSuffix) && !isFileCopy($0.name) }
            .sorted { $0.name < $1.name }
        var read: Set<String> = []
        var scripts: [BackupScript] = []
        var ordered = false
        for entry in scriptEntries {
            let stem = String(entry.name.dropLast(BackupText.scriptSuffix.count))
            let bytes = try archive.checkedContents(of: entry)
            read.insert(entry.name)
            var notCarried: [String] = []
            var options: JSONValue?
            if let optionsEntry = files[stem + optionsSuffix] {
                options = try archive.json(of: optionsEntry)
                read.insert(optionsEntry.name)
                if options?["settings"]?["position"] != nil { ordered = true }
                notCarried += Self.notCarried(from: options?["options"] ?? .null)
            }
            var values: [(key: String, value: JSONValue)] = []
            if let storageEntry = files[stem + storageSuffix] {
                let storage = try archive.json(of: storageEntry)
                read.insert(storageEntry.name)
                let decoded = ManagerValueEncoding.decodeStore(storage["data"] ?? .null)
                values = decoded.values
                notCarried += decoded.notCarried
            }
            // Tampermonkey runs a script unless `settings.enabled` is false.
            let isEnabled = options.map { $0["settings"]?["enabled"] != .bool(false) }
            let origin = options?["meta"]?["file_url"]?.stringValue.flatMap(BackupText.address)
            scripts.append(BackupScript(entryName: entry.name, bytes: bytes, isEnabled: isEnabled, origin: origin,
                                        values: values, notCarried: notCarried))
        }

        var notCarried: [String] = []
        if scripts.count > 1, ordered { notCarried.append(BackupText.orderNotCarried("Tampermonkey")) }
        let copies = files.keys.filter(isFileCopy)
        if !copies.isEmpty {
            notCarried.append("not carried over: Tampermonkey's copies of @require and @resource files; PageScript fetches each from its address")
        }
        let unread = files.keys.filter { !read.contains($0) && !isFileCopy($0) }
        if !unread.isEmpty { notCarried.append(BackupText.notRead(unread)) }
        return (scripts, notCarried)
    }

    /// Whether an entry is Tampermonkey's copy of a `@require` or `@resource` file, or the
    /// description of one: `NAME.user.js-<md5>-<file>`, `... .requires.json`, `... .resources.json`.
    static func isFileCopy(_ name: String) -> Bool {
        name.dropLast(BackupText.scriptSuffix.count).contains(BackupText.scriptSuffix + "-")
    }

    /// The script's settings that PageScript has no place for, each with where it was.
    private static func notCarried(from options: JSONValue) -> [String] {
        var lines: [String] = []
        if options["check_for_updates"] == .bool(false) {
            lines.append(BackupText.updatesOff("options.check_for_updates"))
        }
        let labels = ["run_at": "@run-at", "noframes": "@noframes", "comment": "a note", "tags": "tags", "sandbox": "the sandbox",
                      "run_in": "where it runs", "unwrap": "@unwrap"]
        for (key, label) in labels.sorted(by: { $0.key < $1.key }) {
            guard let value = options[key], let shown = BackupText.setting(value) else { continue }
            lines.append("not carried over: \(label) set in Tampermonkey (options.\(key)): \(shown)")
        }
        if case .object(let pairs) = options {
            for pair in pairs where pair.key.hasPrefix("compat_") && pair.value == .bool(true) {
                lines.append("not carried over: a compatibility option switched on in Tampermonkey (options.\(pair.key))")
            }
        }
        let rules = ["includes": "@include", "matches": "@match", "excludes": "@exclude", "connects": "@connect"]
        let override = options["override"] ?? .null
        for (suffix, rule) in rules.sorted(by: { $0.key < $1.key }) {
            if let added = override["use_\(suffix)"]?.arrayValue?.compactMap(\.stringValue), !added.isEmpty {
                lines.append("not carried over: \(rule) rules added in Tampermonkey (options.override.use_\(suffix)): \(added.joined(separator: ", "))")
            }
            if override["merge_\(suffix)"] == .bool(false) {
                lines.append("not carried over: the file's own \(rule) rules, switched off in Tampermonkey (options.override.merge_\(suffix))")
            }
        }
        if let blockers = override["use_blockers"]?.arrayValue, !blockers.isEmpty {
            lines.append("not carried over: the blockers added in Tampermonkey (options.override.use_blockers)")
        }
        return lines
    }
}
