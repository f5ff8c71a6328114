/// A userscript: the text of a `.user.js` file and what its metadata block says.
///
/// The text is kept exactly as read. Unknown keys, comments, blank lines, alignment and line
/// breaks survive a round trip byte for byte, and an edit rewrites only the lines it changes.
///
/// ```swift
/// var script = try UserScript(text: source, fallbackName: "tidy")
/// script.name                         // "@name", or the fallback when there is none
/// script.siteRules.map(\.text)        // ["*://example.com/*"]
/// try script.setValue("1.1", forKey: "version")
/// script.text                         // the same file with one line changed
/// ```
///
/// The whole ``text`` is what runs: the metadata block is made of comments, and keeping it keeps
/// line numbers in error messages the same as in the file.
public struct UserScript: Hashable, Sendable {
    /// The file's text, exactly.
    public private(set) var text: String
    /// The name used when the metadata has no `@name`: usually the file name without `.user.js`.
    public let fallbackName: String
    /// Every `// @key value` line of the metadata block, in file order.
    public private(set) var entries: [MetadataEntry]
    /// The `@match`, `@exclude-match`, `@include` and `@exclude` rules, compiled, in file order.
    public private(set) var siteRules: [SiteRule]
    var layout: Layout

    /// Reads a script; throws when its metadata block is malformed.
    ///
    /// - Parameters:
    ///   - text: The whole file.
    ///   - fallbackName: The name to use when there is no `@name` (or no block at all).
    public init(text: String, fallbackName: String = "Untitled script") throws(MetadataError) {
        let (layout, entries) = try Self.parse(text)
        self.text = text
        self.fallbackName = fallbackName
        self.layout = layout
        self.entries = entries
        siteRules = Self.compileRules(entries)
    }

    /// Replaces the whole text; throws, leaving the script unchanged, when the new text is malformed.
    public mutating func setText(_ newText: String) throws(MetadataError) {
        let (newLayout, newEntries) = try Self.parse(newText)
        text = newText
        layout = newLayout
        entries = newEntries
        siteRules = Self.compileRules(newEntries)
    }

    /// Two scripts are equal when their text and fallback name are.
    public static func == (lhs: UserScript, rhs: UserScript) -> Bool {
        lhs.text == rhs.text && lhs.fallbackName == rhs.fallbackName
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(fallbackName)
    }

    /// Whether the file has a `// ==UserScript==` block.
    public var hasMetadataBlock: Bool { layout.blockStart != nil }

    /// Every value of `key`, in file order (`values(for: "grant")`).
    public func values(for key: String) -> [String] {
        entries.filter { $0.key == key }.map(\.value)
    }

    /// The first value of `key`, or `nil`.
    public func value(for key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// `@name`, or ``fallbackName``.
    public var name: String { value(for: "name") ?? fallbackName }

    /// The localised names, `@name:fr` and so on, by locale.
    public var localizedNames: [String: String] {
        var names: [String: String] = [:]
        for entry in entries where entry.baseKey == "name" {
            if let locale = entry.locale { names[locale] = entry.value }
        }
        return names
    }

    /// `@namespace`.
    public var namespace: String? { value(for: "namespace") }
    /// `@description`.
    public var scriptDescription: String? { value(for: "description") }
    /// `@version`.
    public var version: String? { value(for: "version") }

    /// `@run-at`, or `nil` when absent or unsupported: then the script runs only on demand.
    public var runAt: RunAt? { value(for: "run-at").flatMap(RunAt.init(rawValue:)) }

    /// Every `@grant` value, as written.
    public var grants: [String] { values(for: "grant") }

    /// The grants PageScript does not provide: every one but `none`.
    public var unsupportedGrants: [String] { grants.filter { $0 != "none" } }

    /// `@noframes`: the script never runs automatically inside frames.
    public var noFrames: Bool { entries.contains { $0.key == "noframes" } }

    /// The code after the metadata block (the whole text when there is no block).
    public var body: String {
        guard let blockEnd = layout.blockEnd else { return text }
        return String(text.unicodeScalars[layout.lines[blockEnd].end...])
    }

    /// Whatever must be fixed or known before the script can run as written.
    public var issues: [ScriptIssue] {
        var issues: [ScriptIssue] = []
        for rule in siteRules {
            if let error = rule.error { issues.append(ScriptIssue(kind: .invalidRule(rule, error), line: rule.line)) }
        }
        for entry in entries {
            if entry.key == "run-at", RunAt(rawValue: entry.value) == nil {
                issues.append(ScriptIssue(kind: .unsupportedRunAt(entry.value), line: entry.line))
            }
            if entry.key == "grant", entry.value != "none" {
                issues.append(ScriptIssue(kind: .unsupportedGrant(entry.value), line: entry.line))
            }
        }
        return issues.sorted { $0.line < $1.line }
    }

    /// Whether the script has at least one `@match` or `@include`.
    public var hasSitePatterns: Bool { siteRules.contains { !$0.kind.isExclusion } }

    /// Whether the script runs by itself on the pages its rules match: it has `@run-at`, at least
    /// one `@match` or `@include`, and no issue that prevents it. Otherwise it runs only on demand.
    public var runsAutomatically: Bool {
        runAt != nil && hasSitePatterns && !issues.contains(where: \.preventsAutomaticRunning)
    }

    static func compileRules(_ entries: [MetadataEntry]) -> [SiteRule] {
        entries.compactMap { entry in
            SiteRule.Kind(rawValue: entry.key).map { SiteRule(kind: $0, text: entry.value, line: entry.line) }
        }
    }
}
