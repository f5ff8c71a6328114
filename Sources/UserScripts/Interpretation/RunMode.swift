/// Whether a script runs by itself on the pages its rules match, and if not, why not.
public enum RunMode: Hashable, Sendable, CustomStringConvertible {
    /// It runs automatically on matching pages, at this moment.
    case automatic(RunAt)
    /// It runs only when asked to (`pagescript run URL --script REF`, the editor), on any page.
    case onDemand(OnDemandReason)

    /// Why a script runs only on demand.
    public enum OnDemandReason: Hashable, Sendable {
        /// It has no `@match` or `@include` (or no metadata block): the managers never run such a
        /// script by themselves either.
        case noSiteRules
        /// `@run-at context-menu` on this line: Tampermonkey's "only from its menu".
        case contextMenu(line: Int)
        /// Every `@match` and `@include` was set aside.
        case everySiteRuleSetAside
        /// The `@exclude` on this line cannot be read, so PageScript cannot tell which pages the
        /// author excluded.
        case unreadableExclusion(line: Int)
        /// `// ==UserScript==` on this line is never closed, so no rule was read.
        case blockNotClosed(line: Int)
    }

    /// The moment it runs at, when it runs automatically.
    public var runAt: RunAt? {
        if case .automatic(let runAt) = self { return runAt }
        return nil
    }

    /// "automatically at document-idle", "only on demand: ...".
    public var description: String {
        switch self {
        case .automatic(let runAt):
            return "automatically at \(runAt)"
        case .onDemand(let reason):
            let why = switch reason {
            case .noSiteRules: "it has no @match or @include"
            case .contextMenu(let line): "@run-at context-menu (line \(line))"
            case .everySiteRuleSetAside: "every @match and @include was set aside"
            case .unreadableExclusion(let line): "the @exclude on line \(line) cannot be read"
            case .blockNotClosed(let line): "the metadata block opened on line \(line) is never closed"
            }
            return "only on demand: \(why)"
        }
    }
}
