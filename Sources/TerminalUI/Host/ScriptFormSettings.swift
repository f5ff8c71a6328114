/// How the "save as a new script" form (Ctrl-N) validates and what it starts with.
///
/// ```swift
/// let settings = ScriptFormSettings(matchPatterns: .patternList { MatchPatternCheck.problem($0) },
///                                   defaultMatchPatterns: ["*://example.com/*"])
/// ```
public struct ScriptFormSettings: Sendable {
    /// The label of the run-at choice that means "only when asked": no patterns, no `@run-at`.
    public static let onDemandChoice = "on demand"

    /// Validates the name field.
    public var name: FieldValidator
    /// Validates the match-patterns field (patterns separated by spaces or commas); see
    /// ``FieldValidator/patternList(_:)``.
    public var matchPatterns: FieldValidator
    /// Validates the exclude field (patterns separated by spaces or commas; may be empty).
    public var excludePatterns: FieldValidator
    /// The run-at values to choose from, in order; the form adds ``onDemandChoice`` after them.
    public var runAtChoices: [String]
    /// The patterns a new script starts with, typically one for the current site.
    public var defaultMatchPatterns: [String]
    /// The run-at value a new script starts with; the first choice when `nil`.
    public var defaultRunAt: String?

    /// Creates form settings.
    public init(
        name: FieldValidator = .requiringText,
        matchPatterns: FieldValidator = .patternList { _ in nil },
        excludePatterns: FieldValidator = .patternList(allowingNone: true) { _ in nil },
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
