import TextInput

/// How the "save as a new script" form (Ctrl-N) checks its fields and what it starts with: the
/// same `TextInput` field formats the iOS app's script screens bind their fields through.
///
/// ```swift
/// let settings = ScriptFormSettings(
///     matchPatterns: PatternListFormat(canBecomeValid: MatchPattern.canBecomeValid, problem: MatchPattern.problem(with:)),
///     defaultMatchPatterns: ["*://example.com/*"])
/// ```
public struct ScriptFormSettings: Sendable {
    /// The label of the run-at choice that means "only when asked": no patterns, no `@run-at`.
    public static let onDemandChoice = "on demand"

    /// The name field's format.
    public var name: any FieldFormat
    /// The match-patterns field's format (patterns separated by spaces or commas).
    public var matchPatterns: PatternListFormat
    /// The exclude field's format (patterns separated by spaces or commas; may be empty).
    public var excludePatterns: PatternListFormat
    /// The run-at values to choose from, in order; the form adds ``onDemandChoice`` after them.
    public var runAtChoices: [String]
    /// The patterns a new script starts with, typically one for the current site.
    public var defaultMatchPatterns: [String]
    /// The run-at value a new script starts with; the first choice when `nil`.
    public var defaultRunAt: String?

    /// A name that must not be empty, as the form asks for it.
    public static let scriptName = NameFormat(missing: "Give the script a name.")

    /// Creates form settings; without formats for the patterns, any text without spaces is a
    /// pattern.
    public init(
        name: any FieldFormat = ScriptFormSettings.scriptName,
        matchPatterns: PatternListFormat = PatternListFormat(canBecomeValid: { _ in true }, problem: { _ in nil }),
        excludePatterns: PatternListFormat = PatternListFormat(allowingNone: true, canBecomeValid: { _ in true }, problem: { _ in nil }),
        runAtChoices: [String] = ["document-idle", "document-end", "document-start"],
        defaultMatchPatterns: [String] = [],
        defaultRunAt: String? = nil
    ) {
        self.name = name
        self.matchPatterns = matchPatterns
        self.excludePatterns = excludePatterns
        self.runAtChoices = runAtChoices.isEmpty ? ["document-idle"] : runAtChoices
        self.defaultMatchPatterns = defaultMatchPatterns
        self.defaultRunAt = defaultRunAt
    }
}
