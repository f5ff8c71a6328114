/// Makes a page-provided title fit to show in a navigation bar.
///
/// The title comes from the page (`document.title`), so it may be anything: empty, megabytes
/// long, full of line breaks, tabs and control characters, wrapped in bidirectional overrides
/// that reorder whatever follows them, or stacked with hundreds of combining marks that draw far
/// outside the label. A label interprets no markup, so "escaping" here means neutralising what
/// would change the layout:
///
/// - whitespace, line and paragraph separators and control characters become one space between
///   words, and none at either end;
/// - bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are dropped;
///   the plain marks (LRM, RLM, ALM) stay, since right-to-left titles use them for punctuation;
/// - at most ``maximumMarksPerCharacter`` combining marks stay on one character;
/// - the result is cut to ``maximumLength`` characters, at a character boundary, ending in "…".
///
/// Emoji sequences (ZWJ families, tag-sequence flags) pass through whole.
///
/// ```swift
/// PageTitleText.display("  Inbox (3)\n\t– Mail  ", fallback: "example.com")  // "Inbox (3) – Mail"
/// PageTitleText.display("", fallback: "example.com")                      // "example.com"
/// ```
public enum PageTitleText {
    /// The most characters shown; a navigation bar cuts far shorter titles anyway.
    public static let maximumLength = 120

    /// The most combining marks kept on one character: enough for stacked diacritics in real
    /// scripts, too few to draw outside the bar.
    public static let maximumMarksPerCharacter = 4

    /// The title as it should be shown.
    ///
    /// - Parameters:
    ///   - title: The page's title, as the page reported it.
    ///   - fallback: What to show when nothing visible is left, such as the site's name.
    ///   - maximumLength: The most characters to show, "…" included; at least 1.
    /// - Returns: The cleaned title, or `fallback`.
    public static func display(_ title: String, fallback: String, maximumLength: Int = maximumLength) -> String {
        let limit = max(maximumLength, 1)
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var marks = 0
        for scalar in title.unicodeScalars {
            if isLayoutControl(scalar) {
                continue
            }
            if isSpace(scalar) {
                pendingSpace = !scalars.isEmpty
                marks = 0
                continue
            }
            if isCombiningMark(scalar) {
                marks += 1
                if marks > maximumMarksPerCharacter { continue }
            } else {
                marks = 0
            }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        guard !cleaned.isEmpty else { return fallback }
        guard let cut = cleaned.index(cleaned.startIndex, offsetBy: limit, limitedBy: cleaned.endIndex),
              cut < cleaned.endIndex else {
            return cleaned
        }
        var kept = String(cleaned[..<cleaned.index(cleaned.startIndex, offsetBy: limit - 1)])
        while kept.last == " " {
            kept.removeLast()
        }
        return kept + "…"
    }

    /// Bidirectional embeddings, overrides and isolates: invisible, and they reorder what follows.
    private static func isLayoutControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Anything that separates words: white space, line and paragraph separators, and control
    /// characters (tabs, escapes, NUL), which a label would draw as nothing or as boxes.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return true
        default:
            return properties.isWhitespace
        }
    }

    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: false
        }
    }
}
