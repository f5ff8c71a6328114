/// `conflictAction` of a `GM_download`: what happens when the downloads folder already has a
/// file by the download's name.
public enum DownloadConflictAction: String, Sendable, Hashable, CaseIterable {
    /// The default: the new file gets the first free name of `name (1).ext`, `name (2).ext`, ...
    case uniquify
    /// The existing file is replaced (atomically: it holds the old or the new content, whole).
    case overwrite
    /// The browsers ask the person; PageScript shows no dialog, so it uniquifies, and says so.
    case prompt

    /// Reads the script's value; absent means ``uniquify``, and so does an unknown value (the
    /// result says so).
    public init(scriptValue: String?) {
        self = scriptValue.flatMap { DownloadConflictAction(rawValue: $0.lowercased()) } ?? .uniquify
    }
}
