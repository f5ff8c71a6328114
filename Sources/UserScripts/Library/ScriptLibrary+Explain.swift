/// Whether one library script runs on a page, and why not when it does not: what
/// `pagescript scripts which URL --all` shows for every script.
public struct ScriptOnPage: Sendable {
    /// How the script's rules decide the page.
    public enum Verdict: Sendable {
        /// A `@match` or `@include` rule names the page; the match says whether and when it runs.
        case matched(ScriptMatch)
        /// A rule names the page, and this exclusion takes it away.
        case excluded(by: SiteRule)
        /// A rule names the page, but this exclusion cannot be read, so the script runs only on
        /// demand until it is fixed.
        case unreadableExclusion(SiteRule)
        /// It has no `@match` or `@include` PageScript can use: it runs only when asked.
        case noRules
        /// None of its rules names the page.
        case noRuleMatches
    }

    /// The script.
    public let script: StoredScript
    /// How its rules decide the page.
    public let verdict: Verdict

    /// Whether the script runs by itself on the page.
    public var runsAutomatically: Bool {
        if case let .matched(match) = verdict { return match.runsAutomatically }
        return false
    }

    /// What happens with the script on the page (`runs at document-idle`, `disabled`,
    /// `does not run`, ...), and the rule that decided it, or why none did; not yet escaped.
    ///
    /// ```swift
    /// entry.explanation   // ("does not run", "excluded by line 5: @exclude *logout*")
    /// ```
    public var explanation: (status: String, reason: String) {
        switch verdict {
        case let .matched(match):
            return (Self.describe(match.status), "line \(match.rule.line): \(match.rule) as \(match.pattern)")
        case let .excluded(rule):
            return ("does not run", "excluded by line \(rule.line): \(rule)")
        case let .unreadableExclusion(rule):
            return ("on demand only", "line \(rule.line): \(rule) cannot be read, so the script runs only when asked")
        case .noRules:
            return ("on demand only", "no @match or @include PageScript can use")
        case .noRuleMatches:
            let rules = script.interpretation.inclusions.filter { !$0.patterns.isEmpty }.map { "line \($0.line): \($0)" }
            return ("does not run", "no rule names this page: " + rules.joined(separator: ", "))
        }
    }

    /// A match's status in words.
    public static func describe(_ status: ScriptMatch.Status) -> String {
        switch status {
        case let .runs(runAt): "runs at \(runAt)"
        case .onDemandOnly: "on demand only"
        case .disabled: "disabled"
        case let .disabledOnSite(site): "disabled on \(site)"
        case .notInFrames: "not in frames"
        }
    }
}

extension ScriptLibrary {
    /// Every script of the library with how its rules decide `url`: those that match first, in
    /// the order they run (as ``which(url:isFrame:includingInactive:)`` lists them, inactive ones
    /// included), then the others in library order, each with why it does not match.
    public func explain(url: PageURL, isFrame: Bool = false) throws(LibraryError) -> [ScriptOnPage] {
        let matches = try which(url: url, isFrame: isFrame, includingInactive: true)
        let matched = Set(matches.map(\.script.id))
        var explained = matches.map { ScriptOnPage(script: $0.script, verdict: .matched($0)) }
        for script in try scripts() where !matched.contains(script.id) {
            explained.append(ScriptOnPage(script: script, verdict: verdict(of: script.interpretation, on: url)))
        }
        return explained
    }

    private func verdict(of interpretation: ScriptInterpretation, on url: PageURL) -> ScriptOnPage.Verdict {
        let inclusions = interpretation.inclusions.filter { !$0.patterns.isEmpty }
        guard !inclusions.isEmpty else { return .noRules }
        let named = inclusions.contains { rule in rule.patterns.contains { $0.matches(url, publicSuffixListPath: publicSuffixListPath) } }
        guard named else { return .noRuleMatches }
        if let unreadable = interpretation.exclusions.first(where: { $0.error != nil }) { return .unreadableExclusion(unreadable) }
        if let exclusion = interpretation.exclusions.first(where: { rule in
            rule.patterns.contains { $0.matches(url, publicSuffixListPath: publicSuffixListPath) }
        }) {
            return .excluded(by: exclusion)
        }
        // Named and not excluded, yet not listed: the library changed between the two looks.
        return .noRuleMatches
    }
}
