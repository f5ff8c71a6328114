import SystemSupport

/// A JavaScript value as the page reports it: `Runtime.RemoteObject`.
///
/// With `returnByValue` the value itself is in ``value`` (JSON-compatible values only); without
/// it, objects come as an ``objectID`` to pass back to `Runtime.callFunctionOn`.
///
/// ```swift
/// let result = try await page.evaluate("6 * 7")
/// #expect(result.value == 42)
/// ```
public struct RemoteObject: Sendable, Equatable {
    /// `object`, `function`, `undefined`, `string`, `number`, `boolean`, `symbol`, `bigint`.
    public let type: String
    /// For objects: `array`, `null`, `node`, `error`, `promise`, …
    public let subtype: String?
    /// The value, for primitives and for anything returned by value. `nil` for `undefined` and
    /// for values JSON cannot hold (see ``unserializableValue``).
    public let value: JSONValue?
    /// `NaN`, `Infinity`, `-Infinity`, `-0` or a BigInt literal such as `12n`.
    public let unserializableValue: String?
    /// A handle on the object in the page, when it was not returned by value.
    public let objectID: String?
    /// The page's description of the value, e.g. `Window` or an error's stack.
    public let description: String?
    /// The constructor's name for objects.
    public let className: String?

    /// Reads a protocol `Runtime.RemoteObject`.
    public init(_ object: JSONValue) {
        type = object["type"]?.stringValue ?? "undefined"
        subtype = object["subtype"]?.stringValue
        value = object["value"]
        unserializableValue = object["unserializableValue"]?.stringValue
        objectID = object["objectId"]?.stringValue
        description = object["description"]?.stringValue
        className = object["className"]?.stringValue
    }
}
