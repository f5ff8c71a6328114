extension UserScript {
    /// Where the metadata block is in the text.
    struct Layout: Sendable {
        var lines: [SourceLine]
        /// The line index of `// ==UserScript==`, or `nil` when there is no block.
        var blockStart: Int?
        /// The line index of `// ==/UserScript==`.
        var blockEnd: Int?
    }

    /// Keys that hold a single value; a second occurrence makes the block ambiguous.
    private static let singleValueKeys: Set<Substring> = ["name", "namespace", "version", "description", "run-at"]


    private enum Marker {
        case opening, closing
    }

    static func parse(_ text: String) throws(MetadataError) -> (Layout, [MetadataEntry]) {
        let lines = SourceLine.split(text)
        var layout = Layout(lines: lines)
        var entries: [MetadataEntry] = []
        var firstLines: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            let content = text.unicodeScalars[line.content]
            let lineNumber = index + 1
            let marker = Self.marker(content)
            guard layout.blockStart != nil else {
                switch marker {
                case .opening: layout.blockStart = index
                case .closing: throw MetadataError(.closingWithoutOpening, line: lineNumber)
                case nil: break
                }
                continue
            }
            switch marker {
            case .closing:
                layout.blockEnd = index
                return (layout, entries)
            case .opening:
                throw MetadataError(.nestedOpening, line: lineNumber)
            case nil:
                guard let entry = try Self.entry(in: content, of: text, lineNumber: lineNumber) else { continue }
                if singleValueKeys.contains(entry.baseKey) {
                    if let firstLine = firstLines[entry.key] {
                        throw MetadataError(.duplicatedKey(entry.key, firstLine: firstLine), line: lineNumber)
                    }
                    firstLines[entry.key] = lineNumber
                }
                if entry.baseKey == "name", entry.value.isEmpty {
                    throw MetadataError(.missingValue(entry.key), line: lineNumber)
                }
                entries.append(entry)
            }
        }
        if let blockStart = layout.blockStart {
            throw MetadataError(.unterminatedBlock, line: blockStart + 1)
        }
        return (layout, entries)
    }

    private static func marker(_ content: Substring.UnicodeScalarView) -> Marker? {
        guard let comment = commentText(content) else { return nil }
        switch trimmed(comment) {
        case "==UserScript==": return .opening
        case "==/UserScript==": return .closing
        default: return nil
        }
    }

    /// Reads one line inside the block: `nil` for a blank line or a plain comment.
    private static func entry(in content: Substring.UnicodeScalarView, of text: String, lineNumber: Int) throws(MetadataError) -> MetadataEntry? {
        guard let comment = commentText(content) else {
            if content.allSatisfy(isSpace) { return nil }
            throw MetadataError(.notAComment, line: lineNumber)
        }
        let afterSpaces = comment.drop(while: isSpace)
        guard afterSpaces.first == "@" else {
            let word = afterSpaces.prefix { !isSpace($0) }
            let gap = afterSpaces.dropFirst(word.count).prefix(while: isSpace)
            let rest = trimmed(afterSpaces.dropFirst(word.count + gap.count))
            if looksLikeKeyWithoutAt(String(word), gap: String(gap), value: rest) {
                throw MetadataError(.keyWithoutAt(String(word)), line: lineNumber)
            }
            return nil
        }
        let keyAndValue = afterSpaces.dropFirst()
        let key = keyAndValue.prefix { !isSpace($0) }
        guard !key.isEmpty else { throw MetadataError(.emptyKey, line: lineNumber) }
        let valueStart = keyAndValue[key.endIndex...].drop(while: isSpace)
        let value = trimmed(valueStart)
        let offset = text.utf8.distance(from: content.startIndex, to: valueStart.startIndex)
        return MetadataEntry(key: String(key), value: value, line: lineNumber, valueOffset: offset)
    }

    /// Whether a plain comment inside the block is really a key whose `@` was forgotten: a known
    /// key followed by something shaped like its value, or by the wide gap of an aligned block.
    /// Prose that merely starts with such a word ("include the header") stays a comment.
    private static func looksLikeKeyWithoutAt(_ word: String, gap: String, value: String) -> Bool {
        guard !value.isEmpty else { return false }
        let aligned = gap.count >= 2 || gap.contains("\t")
        let singleToken = !value.contains(" ")
        switch word {
        case "match", "exclude-match", "include", "exclude":
            return value.contains("://") || value.hasPrefix("*") || value == "<all_urls>"
        case "run-at":
            return value.hasPrefix("document-") || value == "context-menu"
        case "grant":
            return value == "none" || value.hasPrefix("GM") || value == "unsafeWindow" || value.hasPrefix("window.")
        case "version":
            return value.first?.isNumber == true && singleToken
        case "namespace", "require", "resource", "icon", "connect", "homepageURL", "supportURL", "updateURL", "downloadURL":
            return aligned || value.contains("://")
        case "name", "description", "author", "license":
            return aligned
        default:
            return false
        }
    }

    /// The text after `//` when the line is a `//` comment (after any indentation), else `nil`.
    private static func commentText(_ content: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView? {
        let start = content.drop(while: isSpace)
        guard start.starts(with: "//".unicodeScalars) else { return nil }
        return start.dropFirst(2)
    }

    private static func trimmed(_ text: Substring.UnicodeScalarView) -> String {
        let start = text.drop(while: isSpace)
        var end = start.endIndex
        while end > start.startIndex {
            let previous = start.index(before: end)
            guard isSpace(start[previous]) else { break }
            end = previous
        }
        return String(start[start.startIndex..<end])
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\u{0B}" || scalar == "\u{0C}" || scalar == "\u{A0}" || scalar == "\u{FEFF}"
    }
}
