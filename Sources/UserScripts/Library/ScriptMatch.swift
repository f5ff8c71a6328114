/// A library script whose rules match a URL, with the rule that matched and what will happen.
public struct ScriptMatch: Hashable, Sendable {
    /// What happens with a matching script on that page.
    public enum Status: Hashable, Sendable {
        /// It runs automatically, at this point of the page load.
        case runs(RunAt)
        /// It runs only when asked (`@run-at context-menu`).
        case onDemandOnly
        /// It is switched off everywhere.
        case disabled
        /// It is switched off on this site.
        case disabledOnSite(Site)
        /// It has `@noframes` and the page is a frame.
        case notInFrames
    }

    /// The script.
    public let script: StoredScript
    /// The `@match` or `@include` rule that matched.
    public let rule: SiteRule
    /// The pattern of that rule that matched (an `@include` glob can stand for several).
    public let pattern: SitePattern
    /// Whether and when it runs.
    public let status: Status

    /// Whether the script runs automatically on the page.
    public var runsAutomatically: Bool {
        if case .runs = status { return true }
        return false
    }
}
