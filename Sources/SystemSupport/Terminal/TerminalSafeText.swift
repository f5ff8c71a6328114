/// Makes untrusted text (page titles, URLs, console output) safe to write to a terminal.
///
/// A web page controls its title and everything it logs. Written raw, a control character can
/// move the cursor, retitle the window or hide text, and bidi overrides can make text read
/// differently from what it is. ``escaped(_:)`` replaces every such character with a visible
/// escape and leaves printable text alone.
///
/// ```swift
/// TerminalSafeText.escaped("Inbox\u{1B}[2J\n")   // "Inbox\e[2J\n" drawn as plain characters
/// TerminalSafeText.escaped("東京 👩‍💻")             // unchanged
/// ```
public enum TerminalSafeText {
    /// Returns `text` with control, bidi, zero-width and separator characters made visible.
    ///
    /// C0 controls, DEL and C1 controls (U+0080–U+009F), the bidi embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069) and marks, zero-width characters, invisible
    /// format characters and the line and paragraph separators become escapes such as `\n`,
    /// `\t`, `\r`, `\e` and `\u{9B}`. A zero-width joiner or tag character that is part of an
    /// emoji sequence (for example 👩‍💻 or a subdivision flag) is kept, because there it draws
    /// as part of the emoji rather than hiding anything.
    ///
    /// - Parameter text: Text from an untrusted source.
    /// - Returns: Text that contains no character a terminal would interpret.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, inEmojiSequence: false) }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            appendEscaped(character, to: &result)
        }
        return result
    }

    /// Whether a character would be changed by ``escaped(_:)``; the editor draws the unsafe ones
    /// in a style of their own.
    package static func isSafe(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F }
        let emoji = startsEmojiSequence(character)
        return !character.unicodeScalars.contains { needsEscape($0, inEmojiSequence: emoji) }
    }

    /// Appends the escaped form of one character.
    package static func appendEscaped(_ character: Character, to result: inout String) {
        let emoji = startsEmojiSequence(character)
        for scalar in character.unicodeScalars {
            if needsEscape(scalar, inEmojiSequence: emoji) {
                result += escape(for: scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }

    /// The visible escape for one scalar.
    package static func escape(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Joiners and tags are legitimate inside emoji sequences that start with a pictograph.
    private static func startsEmojiSequence(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return first.value >= 0x80 && first.properties.isEmoji
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, inEmojiSequence: Bool) -> Bool {
        let value = scalar.value
        switch value {
        case 0x20..<0x7F:
            return false
        case 0x00..<0x20, 0x7F...0x9F:
            return true
        case 0x200D, 0xE0020...0xE007F:
            return !inEmojiSequence
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return true
        case 0x200B, 0x200C, 0x2060...0x2064, 0xFEFF, 0x180E, 0x00AD, 0x034F:
            return true
        case 0x2028, 0x2029:
            return true
        default:
            return scalar.properties.generalCategory == .format
        }
    }
}
