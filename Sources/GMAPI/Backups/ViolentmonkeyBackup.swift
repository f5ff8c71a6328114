import SystemSupport
import UserScripts

/// Violentmonkey's "Export to zip": each script as `NAME.user.js`, and one entry named
/// `violentmonkey` with the rest (`src/options/views/tab-settings/vm-export.vue`):
///
/// ```json
/// {
///   "scripts": { "NAME": { "config": { "enabled": 1, "shouldUpdate": 1 }, "custom": { ... }, "position": 1,
///                          "lastModified": 1700000000000, "lastUpdated": 1700000000000 } },
///   "settings": { ... },
///   "values": { "URI": { "key": "sdark" } }
/// }
/// ```
///
/// `NAME` is the script's name with `\/:*?"<>|` made `-` (and `_2`, `_3` for repeats). Values
/// are keyed by the script's URI, its `@namespace` and `@name` joined as `NS\nNAME\n` with
/// `-\/:*?"<>|%` and white space written `-` and two hex digits (`getNameURI`,
/// `encodeFilename`), and encoded as ``ManagerValueEncoding`` says; `values` is there only when
/// the user exported values too. Older exports kept `enabled` and `update` beside `config`.
enum ViolentmonkeyBackup {
    /// The entry that marks the archive as Violentmonkey's (its name in any case).
    static let entryName = "violentmonkey"

    /// The backup's scripts and what is not carried over.
    static func read(_ archive: ZipArchive) throws(BackupReadError) -> (scripts: [BackupScript], notCarried: [String]) {
        let files = archive.filesByName
        guard let settingsEntry = files.values.first(where: { $0.name.lowercased() == entryName }) else { return ([], []) }
        let document = try archive.json(of: settingsEntry)
        guard case .object = document else {
            throw .unreadablePart(name: settingsEntry.name, reason: "it is not a JSON object")
        }
        let infos = document["scripts"] ?? .object([])
        let stores = document["values"] ?? .object([])
        var usedStores: Set<String> = []
        var scripts: [BackupScript] = []
        for entry in files.values.filter({ $0.name.hasSuffix(BackupText.scriptSuffix) }).sorted(by: { $0.name < $1.name }) {
            let bytes = try archive.checkedContents(of: entry)
            let info = infos[String(entry.name.dropLast(BackupText.scriptSuffix.count))]
            var notCarried = info.map(notCarried(from:)) ?? []
            var values: [(key: String, value: JSONValue)] = []
            if let text = String(validating: bytes, as: UTF8.self), let uri = uri(of: UserScript(text: text)), let store = stores[uri] {
                usedStores.insert(uri)
                let decoded = ManagerValueEncoding.decodeStore(store)
                values = decoded.values
                notCarried += decoded.notCarried
            }
            let origin = info?["custom"]?["lastInstallURL"]?.stringValue.flatMap(BackupText.address)
            scripts.append(BackupScript(entryName: entry.name, bytes: bytes, isEnabled: info.flatMap(isEnabled),
                                        origin: origin, values: values, notCarried: notCarried))
        }

        var notCarried: [String] = []
        if case .object(let settings)? = document["settings"], !settings.isEmpty {
            notCarried.append("not carried over: Violentmonkey's own settings (settings); PageScript has its own")
        }
        if scripts.count > 1, case .object(let pairs) = infos, pairs.contains(where: { $0.value["position"] != nil }) {
            notCarried.append(BackupText.orderNotCarried("Violentmonkey"))
        }
        if case .object(let pairs) = stores {
            let orphans = pairs.filter { !usedStores.contains($0.key) }.count
            if orphans > 0 {
                notCarried.append("not carried over: the values of \(orphans) script\(orphans == 1 ? "" : "s") not in the backup (values)")
            }
        }
        let unread = files.keys.filter { !$0.hasSuffix(BackupText.scriptSuffix) && $0 != settingsEntry.name }
        if !unread.isEmpty { notCarried.append(BackupText.notRead(unread)) }
        return (scripts, notCarried)
    }

    /// Whether Violentmonkey ran the script: `config.enabled`, else the older `enabled` (1 or 0).
    private static func isEnabled(_ info: JSONValue) -> Bool? {
        BackupText.flag(info["config"]?["enabled"]) ?? BackupText.flag(info["enabled"])
    }

    /// The script's settings that PageScript has no place for, each with where it was.
    private static func notCarried(from info: JSONValue) -> [String] {
        var lines: [String] = []
        if BackupText.flag(info["config"]?["shouldUpdate"]) == false {
            lines.append(BackupText.updatesOff("config.shouldUpdate"))
        }
        guard case .object(let custom)? = info["custom"] else { return lines }
        let ruleKeys = ["match": "@match", "include": "@include", "exclude": "@exclude", "excludeMatch": "@exclude-match"]
        for (key, value) in custom {
            let place = "custom.\(key)"
            if let rule = ruleKeys[key] {
                if let added = value.arrayValue?.compactMap(\.stringValue), !added.isEmpty {
                    lines.append("not carried over: \(rule) rules added in Violentmonkey (\(place)): \(added.joined(separator: ", "))")
                }
            } else if key.hasPrefix("orig"), let rule = ruleKeys[key.dropFirst(4).prefix(1).lowercased() + key.dropFirst(5)] {
                if value == .bool(false) { lines.append("not carried over: the file's own \(rule) rules, switched off in Violentmonkey (\(place))") }
            } else if !["pathMap", "from", "lastInstallURL", "origTag"].contains(key), let shown = BackupText.setting(value) {
                lines.append("not carried over: \(BackupText.label(forViolentmonkey: key)) set in Violentmonkey (\(place)): \(shown)")
            }
        }
        return lines
    }

    /// The URI Violentmonkey keys a script's values by; `nil` for a script with neither
    /// `@name` nor `@namespace`, whose URI holds Violentmonkey's own number for it.
    static func uri(of script: UserScript) -> String? {
        let namespace = script.value(for: "namespace") ?? "", name = script.value(for: "name") ?? ""
        guard !namespace.isEmpty || !name.isEmpty else { return nil }
        var uri = ""
        for scalar in "\(namespace)\n\(name)\n".unicodeScalars {
            if "-\\/:*?\"<>|%".unicodeScalars.contains(scalar) || isJavaScriptWhiteSpace(scalar) {
                let hex = String(scalar.value, radix: 16)
                uri += "-" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                uri.unicodeScalars.append(scalar)
            }
        }
        return uri
    }

    /// JavaScript's `\s`.
    private static func isJavaScriptWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}
