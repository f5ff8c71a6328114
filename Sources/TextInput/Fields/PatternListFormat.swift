import Foundation

/// A field for a list of patterns (a script's match patterns) separated by spaces or commas.
///
/// A keystroke or paste that leaves a pattern no further typing can make valid is refused
/// (`canBecomeValid` answers for each new or changed pattern; a pattern the field held before is
/// left alone), and control characters are refused as ``TextFormat`` refuses them; a pasted line
/// break becomes a space. What is still incomplete is a problem (`problem`, each pattern's
/// reason on a line of its own) until it is fixed; the value is the list once every pattern is
/// valid.
///
/// ```swift
/// let format = PatternListFormat(canBecomeValid: { !$0.hasPrefix("ftp") }, problem: { $0.contains("://") ? nil : "no scheme" })
/// format.applying("f", in: NSRange(location: 0, length: 0), to: "")          // "f"
/// format.applying("p", in: NSRange(location: 2, length: 0), to: "ft")        // nil
/// format.problem(with: "example.com")                                        // "example.com: no scheme"
/// format.value(from: "*://a.example/* *://b.example/*")                      // ["*://a.example/*", "*://b.example/*"]
/// ```
public struct PatternListFormat: FieldFormat {
    /// Whether an empty list can be submitted.
    public let allowsNone: Bool
    private let canBecomeValid: @Sendable (_ partial: String) -> Bool
    private let patternProblem: @Sendable (_ pattern: String) -> String?
    private let line = TextFormat()

    /// - Parameters:
    ///   - allowingNone: Whether an empty list can be submitted.
    ///   - canBecomeValid: Whether typing on could make `partial` a valid pattern.
    ///   - problem: Why a complete pattern is not valid, or `nil` when it is.
    public init(allowingNone: Bool = false, canBecomeValid: @escaping @Sendable (_ partial: String) -> Bool,
                problem: @escaping @Sendable (_ pattern: String) -> String?) {
        allowsNone = allowingNone
        self.canBecomeValid = canBecomeValid
        patternProblem = problem
    }

    /// The patterns a field's text holds, in order.
    public static func patterns(in text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }

    public func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        guard let updated = line.applying(replacement, in: range, to: text) else { return nil }
        let before = Set(Self.patterns(in: text))
        guard Self.patterns(in: updated).allSatisfy({ before.contains($0) || canBecomeValid($0) }) else { return nil }
        return updated
    }

    public func value(from text: String) -> [String]? {
        problem(with: text) == nil ? Self.patterns(in: text) : nil
    }

    public func text(for value: [String]) -> String {
        value.joined(separator: " ")
    }

    public func problem(with text: String) -> String? {
        let patterns = Self.patterns(in: text)
        if patterns.isEmpty {
            return allowsNone ? nil : "Add at least one match pattern, or choose “on demand”."
        }
        let problems = patterns.compactMap { pattern in patternProblem(pattern).map { "\(pattern): \($0)" } }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }
}
