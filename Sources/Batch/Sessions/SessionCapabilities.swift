import SystemSupport

/// The W3C `timeouts` capability, added to a source's own capabilities so that a new session
/// needs no extra round trip to set them.
enum SessionCapabilities {
    /// `capabilities` with `timeouts.script` and `timeouts.pageLoad` set, in milliseconds.
    static func adding(scriptTimeout: Double, pageLoadTimeout: Double, to capabilities: [(key: String, value: JSONValue)]) -> JSONValue {
        let timeouts: JSONValue = [
            "script": .integer(Int64(scriptTimeout * 1000)),
            "pageLoad": .integer(Int64(pageLoadTimeout * 1000)),
        ]
        return .object(capabilities + [(key: "timeouts", value: timeouts)])
    }
}
