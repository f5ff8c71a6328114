/// Something PageScript noticed about one line of a script's metadata block, and what it did.
///
/// The managers read a metadata block leniently, and so does PageScript: a line that is not
/// `// @key value` is a comment, and a line that cannot be used (a second `@name`, an unknown
/// `@run-at`, a rule that cannot be made safe) is set aside while the rest of the script stands.
/// Nothing is changed in the file; the note is the record.
public struct ScriptNote: Hashable, Sendable, CustomStringConvertible {
    /// What was noticed.
    public enum Kind: Hashable, Sendable {
        /// A line inside the block that is not `// @key value` (a plain comment, or code): ignored,
        /// as the managers ignore it.
        case comment(String)
        /// A comment that looks like a key whose `@` was forgotten (`// match *://a.example/*`):
        /// ignored like any comment, but probably not meant to be.
        case keyWithoutAt(String)
        /// `// @` with no key after it.
        case emptyKey
        /// `// ==/UserScript==` before any `// ==UserScript==`, or a second `// ==UserScript==`
        /// inside the block: ignored.
        case strayMarker(String)
        /// `// ==UserScript==` is never closed: none of the block's lines are read, so the script has
        /// no rules and runs only on demand.
        case blockNotClosed
        /// A key that holds one value appears again; the first (on `firstLine`) is used, as the
        /// managers use it.
        case duplicated(key: String, firstLine: Int)
        /// `@name` without a value; the file's name is used instead.
        case emptyName
        /// A `@run-at` value no manager defines; the default, document-idle, is used.
        case unknownRunAt(String)
        /// A site rule that cannot be read safely; it adds no pages (see ``SiteRule/reading``).
        case ruleSetAside(SiteRule)
        /// `@require` with nothing after it.
        case requireWithoutURL
        /// `@resource` without both a name and a URL.
        case resourceWithoutURL(String)
    }

    /// What was noticed.
    public let kind: Kind
    /// The 1-based line number.
    public let line: Int

    /// Whether the line is not used (as opposed to a comment, which is not meant to be used).
    public var isSetAside: Bool {
        switch kind {
        case .comment, .keyWithoutAt, .emptyKey, .strayMarker: false
        case .blockNotClosed, .duplicated, .emptyName, .unknownRunAt, .ruleSetAside, .requireWithoutURL, .resourceWithoutURL: true
        }
    }

    /// Whether PageScript refuses to save a script with this line, written by hand or by the
    /// editor (rule 9: an invalid pattern is refused with the reason and a fix). Imports keep such
    /// lines; only new ones are refused.
    public var refusesSave: Bool {
        switch kind {
        case .ruleSetAside, .unknownRunAt: true
        default: false
        }
    }

    /// "line N: what was noticed and what PageScript does about it".
    public var description: String {
        "line \(line): \(message)"
    }

    /// What was noticed and what PageScript does about it, without the line number.
    public var message: String {
        switch kind {
        case .comment(let text):
            return "`\(text)` is not a `// @key value` line, so it is a comment (the managers ignore it too)"
        case .keyWithoutAt(let key):
            return "`\(key)` looks like a key without its `@`; it is ignored as a comment. Write `// @\(key) ...` if it is meant as one"
        case .emptyKey:
            return "`// @` has no key after it; the line is ignored"
        case .strayMarker(let marker):
            return "`\(marker)` is out of place; the line is ignored"
        case .blockNotClosed:
            return "`// ==UserScript==` is never closed by `// ==/UserScript==`, so none of its lines are read and the script runs only on demand"
        case .duplicated(let key, let firstLine):
            return "@\(key) appears again (first on line \(firstLine)); the first is used, as the managers use it, and this line is set aside"
        case .emptyName:
            return "@name has no value; the file's name is used"
        case .unknownRunAt(let value):
            return "@run-at `\(value)` is not one the managers know (document-start, document-body, document-end, document-idle, context-menu); it is set aside and the default, document-idle, is used"
        case .ruleSetAside(let rule):
            return "@\(rule.kind.key) set aside\(rule.kind.isExclusion ? "" : " (the script's other rules stand)"): " + (rule.error.map(\.description) ?? rule.text)
        case .requireWithoutURL:
            return "@require has no URL; it is set aside"
        case .resourceWithoutURL(let value):
            return "@resource `\(value)` needs a name and a URL; it is set aside"
        }
    }
}
