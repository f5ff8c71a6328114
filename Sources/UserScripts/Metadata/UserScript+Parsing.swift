extension UserScript {
    /// Where the metadata block is in the text.
    struct Layout: Sendable {
        /// The lines up to the end of the block: the text after the last of them is the body,
        /// which reading the block never needs to look at.
        var lines: [SourceLine]
        /// The line index of `// ==UserScript==`, or `nil` when there is no block.
        var blockStart: Int?
        /// The line index of `// ==/UserScript==`.
        var blockEnd: Int?
    }

    private enum Marker {
        case opening, closing
    }

    /// What reading a text finds: where the block is, its entries, and what was noticed on the way.
    struct Parsed {
        var layout: Layout
        var entries: [MetadataEntry] = []
        var notes: [ScriptNote] = []
        /// The line of a `// ==UserScript==` that is never closed.
        var unclosedBlockLine: Int?
    }

    /// Reads the metadata block as the managers do: the block runs from the first
    /// `// ==UserScript==` to the next `// ==/UserScript==`, and inside it every line that is not
    /// `// @key value` is a comment. Nothing here fails; what is odd is noted.
    static func parse(_ text: String) -> Parsed {
        var parsed = Parsed(layout: Layout(lines: []))
        for (index, line) in SourceLine.Lines(text).enumerated() {
            let content = text.unicodeScalars[line.content]
            let lineNumber = index + 1
            let marker = Self.marker(content)
            parsed.layout.lines.append(line)
            guard parsed.layout.blockStart != nil else {
                switch marker {
                case .opening: parsed.layout.blockStart = index
                case .closing: parsed.notes.append(ScriptNote(kind: .strayMarker("// ==/UserScript=="), line: lineNumber))
                case nil: break
                }
                continue
            }
            switch marker {
            case .closing:
                parsed.layout.blockEnd = index
                return parsed
            case .opening:
                parsed.notes.append(ScriptNote(kind: .strayMarker("// ==UserScript=="), line: lineNumber))
            case nil:
                switch Self.reading(content, of: text, lineNumber: lineNumber) {
                case .entry(let entry): parsed.entries.append(entry)
                case .note(let kind): parsed.notes.append(ScriptNote(kind: kind, line: lineNumber))
                case .blank: break
                }
            }
        }
        if let blockStart = parsed.layout.blockStart {
            // Without its end the block cannot be told apart from the code: read none of it.
            let strayClosings = parsed.notes.filter { $0.line <= blockStart }
            parsed = Parsed(layout: Layout(lines: parsed.layout.lines), notes: strayClosings + [ScriptNote(kind: .blockNotClosed, line: blockStart + 1)],
                            unclosedBlockLine: blockStart + 1)
        }
        return parsed
    }

    private static func marker(_ content: Substring.UnicodeScalarView) -> Marker? {
        guard let comment = commentText(content) else { return nil }
        switch trimmed(comment) {
        case "==UserScript==": return .opening
        case "==/UserScript==": return .closing
        default: return nil
        }
    }

    private enum LineReading {
        case entry(MetadataEntry)
        case note(ScriptNote.Kind)
        case blank
    }

    /// Reads one line inside the block: an entry, something to note, or nothing at all.
    private static func reading(_ content: Substring.UnicodeScalarView, of text: String, lineNumber: Int) -> LineReading {
        guard let comment = commentText(content) else {
            if content.allSatisfy(isSpace) { return .blank }
            return .note(.comment(trimmed(content)))
        }
        let afterSpaces = comment.drop(while: isSpace)
        guard afterSpaces.first == "@" else {
            if afterSpaces.isEmpty { return .blank }
            let word = afterSpaces.prefix { !isSpace($0) }
            let gap = afterSpaces.dropFirst(word.count).prefix(while: isSpace)
            let rest = trimmed(afterSpaces.dropFirst(word.count + gap.count))
            if looksLikeKeyWithoutAt(String(word), gap: String(gap), value: rest) {
                return .note(.keyWithoutAt(String(word)))
            }
            return .note(.comment(trimmed(content)))
        }
        let keyAndValue = afterSpaces.dropFirst()
        let key = keyAndValue.prefix { !isSpace($0) }
        guard !key.isEmpty else { return .note(.emptyKey) }
        let valueStart = keyAndValue[key.endIndex...].drop(while: isSpace)
        let value = trimmed(valueStart)
        let offset = text.utf8.distance(from: content.startIndex, to: valueStart.startIndex)
        return .entry(MetadataEntry(key: String(key), value: value, line: lineNumber, valueOffset: offset))
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
