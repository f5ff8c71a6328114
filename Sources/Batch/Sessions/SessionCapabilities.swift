import SystemSupport

/// The W3C `timeouts` capability, added to a source's own capabilities so that a new session
/// needs no extra round trip to set them, and `unhandledPromptBehavior: ignore`, as `run`'s
/// sessions have it: a dialog the page opens is left open for ``PageRuntime/PageSession`` to read,
/// answer and report, where the driver's default would answer it unseen.
enum SessionCapabilities {
    /// `capabilities` with `timeouts.script` and `timeouts.pageLoad` set, in milliseconds, and
    /// dialogs left to PageScript unless `capabilities` say otherwise.
    static func adding(scriptTimeout: Double, pageLoadTimeout: Double, to capabilities: [(key: String, value: JSONValue)]) -> JSONValue {
        let timeouts: JSONValue = [
            "script": .integer(Int64(scriptTimeout * 1000)),
            "pageLoad": .integer(Int64(pageLoadTimeout * 1000)),
        ]
        var members = capabilities + [(key: "timeouts", value: timeouts)]
        if !capabilities.contains(where: { $0.key == "unhandledPromptBehavior" }) {
            members.append((key: "unhandledPromptBehavior", value: "ignore"))
        }
        return .object(members)
    }
}
