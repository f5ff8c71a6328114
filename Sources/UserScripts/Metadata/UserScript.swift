/// A userscript: the text of a `.user.js` file, what its metadata block says, and what PageScript
/// concludes from it.
///
/// The text is kept exactly as read. Unknown keys, comments, blank lines, alignment, a byte-order
/// mark and line breaks survive a round trip byte for byte, and an edit rewrites only the lines
/// it changes. Reading never fails: a block is read the way the userscript managers read it, and
/// whatever cannot be used is set aside in the ``interpretation``, never in the text.
///
/// ```swift
/// var script = UserScript(text: source, fallbackName: "tidy")
/// script.name                          // "@name", or the fallback when there is none
/// script.interpretation.runMode        // .automatic(.documentIdle)
/// try script.setValue("1.1", forKey: "version")
/// script.text                          // the same file with one line changed
/// ```
///
/// The whole ``text`` is what runs: the metadata block is made of comments, and keeping it keeps
/// line numbers in error messages the same as in the file.
public struct UserScript: Hashable, Sendable {
    /// The file's text, exactly.
    public private(set) var text: String
    /// The name used when the metadata has no `@name`: usually the file name without `.user.js`.
    public let fallbackName: String
    /// Every `// @key value` line of the metadata block, in file order, set-aside lines included.
    public private(set) var entries: [MetadataEntry]
    /// What PageScript concludes about the script (see ``ScriptInterpretation``).
    public private(set) var interpretation: ScriptInterpretation
    var layout: Layout

    /// Reads a script.
    ///
    /// - Parameters:
    ///   - text: The whole file.
    ///   - fallbackName: The name to use when there is no `@name` (or no block at all).
    public init(text: String, fallbackName: String = "Untitled script") {
        let parsed = Self.parse(text)
        self.text = text
        self.fallbackName = fallbackName
        layout = parsed.layout
        entries = parsed.entries
        interpretation = ScriptInterpretation(
            entries: parsed.entries, blockNotes: parsed.notes, unclosedBlockLine: parsed.unclosedBlockLine, fallbackName: fallbackName)
    }

    /// A script whose interpretation is already known (the library's index keeps it), so its rules
    /// are not compiled again.
    init(text: String, fallbackName: String, interpretation: ScriptInterpretation) {
        let parsed = Self.parse(text)
        self.text = text
        self.fallbackName = fallbackName
        layout = parsed.layout
        entries = parsed.entries
        self.interpretation = interpretation
    }

    /// Replaces the whole text, and reads it again.
    public mutating func setText(_ newText: String) {
        self = UserScript(text: newText, fallbackName: fallbackName)
    }

    /// Two scripts are equal when their text and fallback name are.
    public static func == (lhs: UserScript, rhs: UserScript) -> Bool {
        lhs.text == rhs.text && lhs.fallbackName == rhs.fallbackName
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(fallbackName)
    }

    /// Whether the file has a closed `// ==UserScript==` block.
    public var hasMetadataBlock: Bool { layout.blockEnd != nil }

    /// Every value of `key`, in file order (`values(for: "grant")`).
    public func values(for key: String) -> [String] {
        entries.filter { $0.key == key }.map(\.value)
    }

    /// The first value of `key`, or `nil`.
    public func value(for key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// `@name`, or ``fallbackName``.
    public var name: String { interpretation.name }

    /// The localised names, `@name:fr` and so on, by locale.
    public var localizedNames: [String: String] {
        var names: [String: String] = [:]
        for entry in entries where entry.baseKey == "name" {
            if let locale = entry.locale, names[locale] == nil { names[locale] = entry.value }
        }
        return names
    }

    /// `@namespace`.
    public var namespace: String? { value(for: "namespace") }
    /// `@description`.
    public var scriptDescription: String? { value(for: "description") }
    /// `@version`.
    public var version: String? { value(for: "version") }

    /// `@run-at` as written, when it names a moment of the page load; `nil` when absent or another
    /// value. When the script runs is ``ScriptInterpretation/runMode``.
    public var runAt: RunAt? { value(for: "run-at").flatMap(RunAt.init(rawValue:)) }

    /// Every `@grant` value, as written.
    public var grants: [String] { interpretation.grants }

    /// `@noframes`: the script never runs automatically inside frames.
    public var noFrames: Bool { interpretation.noFrames }

    /// The code after the metadata block (the whole text when there is no block).
    public var body: String {
        guard let blockEnd = layout.blockEnd else { return text }
        return String(text.unicodeScalars[layout.lines[blockEnd].end...])
    }

    /// The `@match`, `@exclude-match`, `@include` and `@exclude` rules, compiled, in file order.
    public var siteRules: [SiteRule] { interpretation.rules }

    /// Whether the script has at least one `@match` or `@include`.
    public var hasSitePatterns: Bool { siteRules.contains { !$0.kind.isExclusion } }

    /// Whether the script runs by itself on the pages its rules match; otherwise it runs only on
    /// demand (see ``ScriptInterpretation/runMode``).
    public var runsAutomatically: Bool { interpretation.runsAutomatically }
}
