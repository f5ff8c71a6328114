import SystemSupport

/// One change a script made to its values: `GM_setValue(key, value)` or `GM_deleteValue(key)`.
///
/// The page collects a run's changes and hands them back in order; ``ScriptValueStore/apply(_:to:)``
/// writes them, key by key, over whatever is on disk then.
///
/// On the wire (JSON from the page) a change is `{"key": "k", "value": <any JSON>}` to set and
/// `{"key": "k", "deleted": true}` to delete; `null` is a value like any other.
///
/// ```swift
/// let changes = try ValueChange.list(fromJSON: .array([["key": "count", "value": 3]]))
/// try store.apply(changes, to: id)
/// ```
public enum ValueChange: Sendable, Hashable, CustomStringConvertible {
    /// `GM_setValue(key, value)`.
    case set(key: String, value: JSONValue)
    /// `GM_deleteValue(key)`.
    case delete(key: String)

    /// The key the change is about.
    public var key: String {
        switch self {
        case .set(let key, _), .delete(let key): key
        }
    }

    /// The change as the page sends it.
    public var json: JSONValue {
        switch self {
        case .set(let key, let value): ["key": .string(key), "value": value]
        case .delete(let key): ["key": .string(key), "deleted": true]
        }
    }

    /// Reads one change in the page's form (see the type's discussion).
    public init(json: JSONValue) throws(ValueStoreError) {
        guard let key = json["key"]?.stringValue else {
            throw .invalidChange("a change needs a string `key`; got \(json.serialized)")
        }
        if json["deleted"] == .bool(true) {
            self = .delete(key: key)
        } else if let value = json["value"] {
            self = .set(key: key, value: value)
        } else {
            throw .invalidChange("the change of `\(key)` has neither a `value` nor `\"deleted\": true`")
        }
    }

    /// Reads the page's array of changes, in order.
    public static func list(fromJSON json: JSONValue) throws(ValueStoreError) -> [ValueChange] {
        guard let elements = json.arrayValue else { throw .invalidChange("changes must be a JSON array; got \(json.serialized)") }
        var changes: [ValueChange] = []
        changes.reserveCapacity(elements.count)
        for element in elements { changes.append(try ValueChange(json: element)) }
        return changes
    }

    /// `set key = value` or `delete key`, for messages.
    public var description: String {
        switch self {
        case .set(let key, let value): "set \(key) = \(value.serialized)"
        case .delete(let key): "delete \(key)"
        }
    }
}
