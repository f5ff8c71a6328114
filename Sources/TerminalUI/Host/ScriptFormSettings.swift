/// How the "name this script" form validates and what it starts with.
public struct ScriptFormSettings: Sendable {
    /// Validates the name field.
    public var name: FieldValidator
    /// Validates the match-patterns field (patterns separated by spaces or commas); see
    /// ``FieldValidator/patternList(_:)``.
    public var matchPatterns: FieldValidator
    /// The run-at values to choose from, in order.
    public var runAtChoices: [String]
    /// The patterns a new script starts with, typically one for the current site.
    public var defaultMatchPatterns: [String]
    /// The run-at value a new script starts with; the first choice when `nil`.
    public var defaultRunAt: String?

    /// Creates form settings.
    public init(
        name: FieldValidator = .requiringText,
        matchPatterns: FieldValidator = .patternList { _ in nil },
        runAtChoices: [String] = ["document-idle", "document-end", "document-start"],
        defaultMatchPatterns: [String] = [],
        defaultRunAt: String? = nil
    ) {
        self.name = name
        self.matchPatterns = matchPatterns
        self.runAtChoices = runAtChoices.isEmpty ? ["document-idle"] : runAtChoices
        self.defaultMatchPatterns = defaultMatchPatterns
        self.defaultRunAt = defaultRunAt
    }
}
