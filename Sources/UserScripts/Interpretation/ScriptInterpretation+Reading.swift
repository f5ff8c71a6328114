import Foundation

extension ScriptInterpretation {
    /// The keys that hold one value: a later line with the same key is set aside.
    static let singleValueKeys: Set<Substring> = ["name", "namespace", "version", "description", "run-at", "downloadURL", "updateURL"]

    /// Reads the entries of a metadata block, with what parsing the block noticed.
    ///
    /// - Parameters:
    ///   - entries: Every `// @key value` line, in order.
    ///   - blockNotes: What parsing noticed: comments, stray markers, an unclosed block.
    ///   - unclosedBlockLine: The line of a `// ==UserScript==` that is never closed.
    ///   - fallbackName: The name to use without `@name`.
    init(entries: [MetadataEntry], blockNotes: [ScriptNote], unclosedBlockLine: Int?, fallbackName: String) {
        var notes = blockNotes
        var firstLines: [String: Int] = [:]
        var used: [MetadataEntry] = []
        for entry in entries {
            if Self.singleValueKeys.contains(entry.baseKey) {
                if let firstLine = firstLines[entry.key] {
                    notes.append(ScriptNote(kind: .duplicated(key: entry.key, firstLine: firstLine), line: entry.line))
                    continue
                }
                if entry.key == "name", entry.value.isEmpty {
                    notes.append(ScriptNote(kind: .emptyName, line: entry.line))
                    continue
                }
                firstLines[entry.key] = entry.line
            }
            used.append(entry)
        }

        name = used.first { $0.key == "name" }?.value ?? fallbackName
        grants = used.filter { $0.key == "grant" }.map(\.value)
        noFrames = used.contains { $0.key == "noframes" }

        var rules: [SiteRule] = []
        for entry in used {
            guard let kind = SiteRule.Kind(rawValue: entry.key) else { continue }
            let rule = SiteRule(kind: kind, text: entry.value, line: entry.line)
            if rule.error != nil { notes.append(ScriptNote(kind: .ruleSetAside(rule), line: rule.line)) }
            rules.append(rule)
        }
        self.rules = rules

        let base = (used.first { $0.key == "downloadURL" } ?? used.first { $0.key == "updateURL" }).flatMap { URL(string: $0.value) }
        var requires: [RequiredFile] = []
        var resources: [RequiredFile] = []
        for entry in used {
            switch entry.key {
            case "require":
                guard !entry.value.isEmpty else {
                    notes.append(ScriptNote(kind: .requireWithoutURL, line: entry.line))
                    continue
                }
                requires.append(Self.file(named: nil, address: entry.value, written: entry.value, base: base, line: entry.line))
            case "resource":
                let parts = entry.value.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2 else {
                    notes.append(ScriptNote(kind: .resourceWithoutURL(entry.value), line: entry.line))
                    continue
                }
                let address = parts[1].trimmingCharacters(in: .whitespaces)
                resources.append(Self.file(named: String(parts[0]), address: address, written: entry.value, base: base, line: entry.line))
            default:
                break
            }
        }
        self.requires = requires
        self.resources = resources

        var runAt = RunAt.documentIdle
        var runAtLine: Int?
        var contextMenuLine: Int?
        if let entry = used.first(where: { $0.key == "run-at" }) {
            if let written = RunAt(rawValue: entry.value) {
                runAt = written
                runAtLine = entry.line
            } else if entry.value == "context-menu" {
                contextMenuLine = entry.line
                runAtLine = entry.line
            } else {
                notes.append(ScriptNote(kind: .unknownRunAt(entry.value), line: entry.line))
            }
        }
        self.runAtLine = runAtLine

        let inclusions = rules.filter { !$0.kind.isExclusion }
        if let unclosedBlockLine {
            runMode = .onDemand(.blockNotClosed(line: unclosedBlockLine))
        } else if inclusions.isEmpty {
            runMode = .onDemand(.noSiteRules)
        } else if inclusions.allSatisfy({ $0.error != nil }) {
            runMode = .onDemand(.everySiteRuleSetAside)
        } else if let unreadable = rules.first(where: { $0.kind.isExclusion && $0.error != nil && !$0.text.isEmpty }) {
            runMode = .onDemand(.unreadableExclusion(line: unreadable.line))
        } else if let contextMenuLine {
            runMode = .onDemand(.contextMenu(line: contextMenuLine))
        } else {
            runMode = .automatic(runAt)
        }
        self.notes = notes.sorted { $0.line < $1.line }
    }

    private static func file(named name: String?, address: String, written: String, base: URL?, line: Int) -> RequiredFile {
        let hash = address.firstIndex(of: "#")
        let withoutFragment = hash.map { String(address[..<$0]) } ?? address
        let fragment = hash.map { address[address.index(after: $0)...] } ?? ""
        let url = URL(string: withoutFragment).flatMap { parsed in
            parsed.scheme != nil ? parsed : base.flatMap { URL(string: withoutFragment, relativeTo: $0)?.absoluteURL }
        }
        return RequiredFile(name: name, written: written, url: url, integrity: IntegrityHash.parse(fragment: fragment), line: line)
    }
}
