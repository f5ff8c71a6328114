/// When a ``ScriptLibrary`` looks at its folder again for changes made by other programs.
///
/// The check compares every script file's size, times and inode with what was read before, and
/// rereads only what changed. It costs one `stat` per file: next to nothing for a few hundred
/// scripts, some milliseconds for ten thousand. Changes the library makes itself are always seen.
public enum ReloadPolicy: Hashable, Sendable {
    /// Check on every call, so an edit made in another editor is what runs next. The default.
    case onEveryAccess
    /// Check at most once per interval; a call within the interval uses what was read last.
    case atMostEvery(Duration)
    /// Check only when ``ScriptLibrary/reloadIfChanged()`` is called.
    case manual
}
