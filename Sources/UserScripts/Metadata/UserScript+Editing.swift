extension UserScript {
    /// Sets a single-valued key such as `version` or `name`, or removes it when `value` is `nil`.
    ///
    /// The first line with the key keeps its indentation and alignment and gets the new value;
    /// further lines with the same key are removed. A new key goes after the last key line of the
    /// block, aligned like the lines around it; a file without a block gets one at the top.
    public mutating func setValue(_ value: String?, forKey key: String) throws(MetadataError) {
        try setValues(value.map { [$0] } ?? [], forKey: key)
    }

    /// Sets every value of a key (`match`, `grant`, ...), in order.
    ///
    /// Existing lines are reused in place (a line whose value does not change is not touched),
    /// extra lines are removed, and missing ones are added after the last line with the key.
    public mutating func setValues(_ values: [String], forKey key: String) throws(MetadataError) {
        guard !key.isEmpty, !key.unicodeScalars.contains(where: { Self.isSpace($0) || $0 == "\n" || $0 == "\r" }) else {
            throw MetadataError(.invalidKey(key), line: 1)
        }
        if values.contains(where: Self.containsLineBreak) {
            throw MetadataError(.lineBreakInValue(key), line: layout.blockStart.map { $0 + 1 } ?? 1)
        }
        guard hasMetadataBlock else {
            guard !values.isEmpty else { return }
            insertBlock(with: values.map { (key, $0) })
            return
        }
        var lines = editableLines()
        let existing = entries.filter { $0.key == key }
        for (entry, value) in zip(existing, values) where entry.value != value {
            lines[entry.line - 1].content = prefix(of: entry, in: lines[entry.line - 1].content) + value
        }
        var removed = Set<Int>()
        for entry in existing.dropFirst(values.count) {
            removed.insert(entry.line - 1)
        }
        if values.count > existing.count {
            let anchor = existing.last.map { $0.line - 1 } ?? lastKeyLineIndex()
            let newLines = values.dropFirst(existing.count).map { value in
                EditableLine(content: newEntryLine(key: key, value: value), terminator: lineBreak(after: anchor))
            }
            lines.insert(contentsOf: newLines, at: anchor + 1)
        }
        let kept = lines.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        replaceText(with: kept)
    }

    /// Removes every line with `key` from the metadata block.
    public mutating func removeValues(forKey key: String) throws(MetadataError) {
        try setValues([], forKey: key)
    }

    /// Replaces the code after the metadata block, keeping the block byte for byte; without a
    /// block, replaces the whole text.
    public mutating func setBody(_ body: String) {
        guard let blockEnd = layout.blockEnd else {
            setText(body)
            return
        }
        setText(String(text.unicodeScalars[..<layout.lines[blockEnd].end]) + body)
    }

    /// Creates a script with a fresh metadata block in PageScript's layout.
    ///
    /// ```swift
    /// let script = try UserScript.make(name: "Tidy", matches: ["*://example.com/*"], runAt: .documentIdle, body: "document.title")
    /// ```
    public static func make(
        name: String,
        description: String? = nil,
        matches: [String] = [],
        runAt: RunAt? = nil,
        grants: [String] = ["none"],
        body: String
    ) throws(MetadataError) -> UserScript {
        var entries: [(String, String)] = [("name", name)]
        if let description { entries.append(("description", description)) }
        entries += matches.map { ("match", $0) }
        if let runAt { entries.append(("run-at", runAt.rawValue)) }
        entries += grants.map { ("grant", $0) }
        for (key, value) in entries where containsLineBreak(value) {
            throw MetadataError(.lineBreakInValue(key), line: 1)
        }
        var text = "// ==UserScript==\n"
        for (key, value) in entries {
            text += alignedLine(key: key, value: value, column: defaultValueColumn) + "\n"
        }
        text += "// ==/UserScript==\n\n" + body
        return UserScript(text: text, fallbackName: name)
    }

    /// Whether a value would end its metadata line. Checked on scalars: `"\r\n"` is one
    /// `Character`, which neither `"\n"` nor `"\r"` equals.
    private static func containsLineBreak(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// Where values start in blocks PageScript writes, as in Tampermonkey's template.
    private static let defaultValueColumn = 17

    private struct EditableLine {
        var content: String
        var terminator: String
    }

    /// The lines of the block and before it, then the rest of the text as one last line.
    private func editableLines() -> [EditableLine] {
        var lines = layout.lines.map { line in
            EditableLine(content: String(text.unicodeScalars[line.content]), terminator: String(text.unicodeScalars[line.content.upperBound..<line.end]))
        }
        let restStart = layout.lines.last?.end ?? text.startIndex
        if restStart < text.endIndex {
            lines.append(EditableLine(content: String(text.unicodeScalars[restStart...]), terminator: ""))
        }
        return lines
    }

    private mutating func replaceText(with lines: [EditableLine]) {
        setText(lines.map { $0.content + $0.terminator }.joined())
    }

    private func prefix(of entry: MetadataEntry, in content: String) -> String {
        let utf8 = content.utf8
        let valueStart = utf8.index(utf8.startIndex, offsetBy: entry.valueOffset)
        let beforeValue = String(content.unicodeScalars[..<valueStart])
        // A flag such as `// @noframes` has no space before its (absent) value yet.
        let endsWithSpace = beforeValue.unicodeScalars.last.map(Self.isSpace) ?? false
        return endsWithSpace ? beforeValue : beforeValue + " "
    }

    /// The index of the last key line in the block, or of the opening line when there is none.
    private func lastKeyLineIndex() -> Int {
        entries.last.map { $0.line - 1 } ?? (layout.blockStart ?? 0)
    }

    /// A new key line shaped like the block's existing ones: same indentation, same value column.
    private func newEntryLine(key: String, value: String) -> String {
        guard let reference = entries.first else {
            return Self.alignedLine(key: key, value: value, column: Self.defaultValueColumn)
        }
        let content = String(text.unicodeScalars[layout.lines[reference.line - 1].content])
        let indentation = String(content.unicodeScalars.prefix { Self.isSpace($0) })
        let column = content.utf8.prefix(reference.valueOffset).count - indentation.utf8.count
        return indentation + Self.alignedLine(key: key, value: value, column: reference.value.isEmpty ? 0 : column)
    }

    private static func alignedLine(key: String, value: String, column: Int) -> String {
        let head = "// @" + key
        guard !value.isEmpty else { return head }
        let padding = max(1, column - head.count)
        return head + String(repeating: " ", count: padding) + value
    }

    /// The line break to give a line inserted after `index`: that line's own, else the file's.
    private func lineBreak(after index: Int) -> String {
        if layout.lines.indices.contains(index) {
            let line = layout.lines[index]
            let existing = String(text.unicodeScalars[line.content.upperBound..<line.end])
            if !existing.isEmpty { return existing }
        }
        return text.contains("\r\n") ? "\r\n" : "\n"
    }

    private mutating func insertBlock(with entries: [(String, String)]) {
        let lineBreak = text.contains("\r\n") ? "\r\n" : "\n"
        var block = "// ==UserScript==" + lineBreak
        for (key, value) in entries {
            block += Self.alignedLine(key: key, value: value, column: Self.defaultValueColumn) + lineBreak
        }
        block += "// ==/UserScript==" + lineBreak + lineBreak
        setText(block + text)
    }
}
