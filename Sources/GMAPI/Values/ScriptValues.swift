import SystemSupport
import UserScripts

/// All the values one script has stored, as read at one moment: what the page receives before
/// the script runs, so that `GM_getValue` and `GM_listValues` can answer synchronously.
///
/// Keys keep the order in which they were first set (the order `GM_listValues` reports). The
/// ``revision`` grows with every write, so a page holding a snapshot can tell that another run
/// changed the values since, and ``changes(since:)`` says which keys (for
/// `GM_addValueChangeListener` with `remote: true`).
///
/// ```swift
/// let values = try store.values(of: id)
/// values["theme"]            // .string("dark")
/// values.object.serialized   // {"theme":"dark","count":3}
/// ```
public struct ScriptValues: Sendable, Hashable {
    /// The script the values belong to.
    public let scriptID: ScriptID
    /// How many writes the values have seen; 0 for a script that never stored anything.
    public let revision: Int
    /// The keys, in the order they were first set.
    public private(set) var keys: [String]
    private var storage: [String: JSONValue]

    /// Values with these keys and contents, in order; a repeated key keeps its first position and
    /// its last value.
    public init(scriptID: ScriptID, revision: Int = 0, pairs: [(key: String, value: JSONValue)] = []) {
        self.scriptID = scriptID
        self.revision = revision
        keys = []
        storage = [:]
        for pair in pairs { setValue(pair.value, forKey: pair.key) }
    }

    /// The value stored under `key`, or `nil` (`GM_getValue`'s default applies).
    public subscript(key: String) -> JSONValue? { storage[key] }

    /// How many keys there are.
    public var count: Int { keys.count }

    /// Whether the script has no values.
    public var isEmpty: Bool { keys.isEmpty }

    /// Every key and value, in key order.
    public var pairs: [(key: String, value: JSONValue)] {
        keys.compactMap { key in storage[key].map { (key: key, value: $0) } }
    }

    /// The values as one JSON object in key order: what the page's `GM_getValue` reads from.
    public var object: JSONValue { .object(pairs) }

    /// What turns `older` into these values: a ``ValueChange/set(key:value:)`` for each key added
    /// or changed, a ``ValueChange/delete(key:)`` for each key removed.
    public func changes(since older: ScriptValues) -> [ValueChange] {
        var changes: [ValueChange] = []
        for key in older.keys where storage[key] == nil {
            changes.append(.delete(key: key))
        }
        for key in keys {
            guard let value = storage[key], older.storage[key] != value else { continue }
            changes.append(.set(key: key, value: value))
        }
        return changes
    }

    /// These values with `changes` applied in order, and a revision one higher when any were given.
    public func applying(_ changes: [ValueChange]) -> ScriptValues {
        var next = ScriptValues(scriptID: scriptID, revision: changes.isEmpty ? revision : revision + 1)
        next.keys = keys
        next.storage = storage
        for change in changes {
            switch change {
            case .set(let key, let value): next.setValue(value, forKey: key)
            case .delete(let key): next.removeValue(forKey: key)
            }
        }
        return next
    }

    private mutating func setValue(_ value: JSONValue, forKey key: String) {
        if storage.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    private mutating func removeValue(forKey key: String) {
        guard storage.removeValue(forKey: key) != nil else { return }
        keys.removeAll { $0 == key }
    }
}
