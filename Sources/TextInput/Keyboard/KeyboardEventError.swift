/// What was wrong with a notification that could not be read as a ``KeyboardEvent``.
///
/// UIKit's payload is untyped: any key can be missing or hold an unexpected type, and a bad
/// payload must neither crash the app nor disappear without a trace. Each case names the key and,
/// where there was a value, describes what was found so a log line is enough to diagnose it.
///
/// ```swift
/// do {
///     let event = try KeyboardEvent(notification: notification)
/// } catch {
///     logger.error("\(error.description)")
/// }
/// ```
public enum KeyboardEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The notification's name is not one of the six keyboard notifications.
    case unrecognizedName(String)
    /// The notification carried no `userInfo` dictionary at all.
    case missingUserInfo(phase: KeyboardPhase)
    /// The `userInfo` dictionary has no value for the key.
    case missingValue(key: KeyboardUserInfoKey)
    /// The key's value has the wrong type or an unusable value.
    ///
    /// - Parameters:
    ///   - key: The key whose value was rejected.
    ///   - expected: What a valid value looks like.
    ///   - found: The type and value that was there instead.
    case mismatchedValue(key: KeyboardUserInfoKey, expected: String, found: String)

    /// The key the error is about, or `nil` when it is about the notification as a whole.
    public var key: KeyboardUserInfoKey? {
        switch self {
        case .unrecognizedName, .missingUserInfo: nil
        case .missingValue(let key), .mismatchedValue(let key, _, _): key
        }
    }

    /// A one-line explanation naming the key and what was found.
    public var description: String {
        switch self {
        case .unrecognizedName(let name):
            "\(name) is not a keyboard notification"
        case .missingUserInfo(let phase):
            "\(phase.rawValue) carried no userInfo"
        case .missingValue(let key):
            "\(key.rawValue) is missing from userInfo"
        case .mismatchedValue(let key, let expected, let found):
            "\(key.rawValue) should be \(expected) but is \(found)"
        }
    }
}
