import PageRuntime
import UserScripts

/// The `GM_registerMenuCommand` commands of the page a browser shows, each on a key (`1` to `9`,
/// in the order the scripts registered them), as `browse` offers them at the terminal.
///
/// ```swift
/// var menu = BrowseMenu()
/// let added = menu.add(results)            // after a run: [Entry(key: "1", script: ..., name: "Reset")]
/// menu.request(forKey: "1")                // .menuCommand(script: ..., name: "Reset")
/// menu.clear()                             // a new document
/// ```
public struct BrowseMenu: Sendable {
    /// One command on one key.
    public struct Entry: Sendable {
        /// The key that runs it.
        public let key: Character
        /// The script that registered it.
        public let script: StoredScript
        /// The command's name, as the script registered it (page text: escape it before showing it).
        public let name: String
    }

    /// The keys, in the order they are given out.
    public static let keys: [Character] = Array("123456789")

    /// The commands on keys now.
    public private(set) var entries: [Entry] = []

    public init() {}

    /// Forgets the commands: the page they were registered on is gone.
    public mutating func clear() {
        entries = []
    }

    /// Gives the commands that `results` registered the next free keys (a command already on a
    /// key keeps it; commands past the ninth get none) and returns the new entries.
    @discardableResult
    public mutating func add(_ results: [LibraryScriptResult]) -> [Entry] {
        var added: [Entry] = []
        for entry in results {
            guard case let .success(result) = entry.outcome else { continue }
            for name in result.userscript?.menuCommands ?? [] where entries.count < Self.keys.count {
                guard !entries.contains(where: { $0.script.id == entry.script.id && $0.name == name }) else { continue }
                let new = Entry(key: Self.keys[entries.count], script: entry.script, name: name)
                entries.append(new)
                added.append(new)
            }
        }
        return added
    }

    /// What pressing `key` asks for, if it is a command's key.
    public func request(forKey key: Character) -> BrowseRequest? {
        entries.first { $0.key == key }.map { .menuCommand(script: $0.script.id, name: $0.name) }
    }
}
