import UserScripts

/// A script file of the library saved while ``BrowserFollower`` follows the folder
/// (`browse --watch`), and what the follower did about it.
public enum ScriptSave: Sendable {
    /// The script runs on the page the window shows: the page is reloaded, and the new document's
    /// runs (the saved script's among them) are the save's result.
    case reloading(script: StoredScript, url: String)
    /// The script runs on no page the window shows now: its new version runs on the next page it
    /// matches.
    case notOnThisPage(script: StoredScript)
    /// The new version cannot be used (`problems`, each "line N: reason"): nothing is reloaded, and
    /// what the version before did on the page stays.
    case unusable(problems: [String])
    /// The file is gone (deleted, or renamed out of the library).
    case removed
}
