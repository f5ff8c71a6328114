import SystemSupport
import UserScripts

/// Builds `GM_info`: the script's parsed metadata as the managers expose it, and who runs it.
///
/// The object has the fields Tampermonkey and Violentmonkey scripts read:
///
/// ```json
/// {"script": {"name": "Tidy", "namespace": "https://example.com", "version": "1.2", "description": "...",
///             "author": "", "homepage": "", "icon": "", "matches": ["*://example.com/*"], "includes": [],
///             "excludes": [], "excludeMatches": [], "grant": ["GM_getValue"], "connects": ["api.example.com"],
///             "requires": ["https://code.jquery.com/jquery-3.7.1.min.js"],
///             "resources": [{"name": "css", "url": "https://example.com/a.css"}],
///             "runAt": "document-idle", "run-at": "document-idle", "noframes": false,
///             "updateURL": "", "downloadURL": "", "supportURL": "", "uuid": "k3m9x2ab", "unwrap": false},
///  "scriptMetaStr": "// ==UserScript==\n...// ==/UserScript==\n", "scriptHandler": "PageScript",
///  "version": "0.1.0", "uuid": "k3m9x2ab", "scriptWillUpdate": false, "injectInto": "page", "isIncognito": false}
/// ```
///
/// Absent text fields are `""`, as in Violentmonkey, so that `GM_info.script.version.split(".")`
/// does not throw. `runAt` (Violentmonkey) and `run-at` (Tampermonkey) are both given; a script
/// without `@run-at` reports `document-idle`, Tampermonkey's default.
///
/// ```swift
/// let info = GMInfo.make(for: stored.script, id: stored.id, handlerVersion: "0.1.0")
/// ```
public enum GMInfo {
    /// The name scripts see in `GM_info.scriptHandler`.
    public static let scriptHandler = "PageScript"

    /// `GM_info` for a script.
    ///
    /// - Parameters:
    ///   - script: The script.
    ///   - id: Its ID in the library (`GM_info.uuid`); scripts run with `-e` have one of their own.
    ///   - handlerVersion: PageScript's version (`GM_info.version`), as the executable reports it.
    public static func make(for script: UserScript, id: ScriptID, handlerVersion: String) -> JSONValue {
        func text(_ key: String) -> JSONValue { .string(script.value(for: key) ?? "") }
        func list(_ key: String) -> JSONValue { .array(script.values(for: key).map(JSONValue.string)) }
        let dependencies = ScriptDependency.declared(in: script)
        let runAt = script.value(for: "run-at") ?? RunAt.documentIdle.rawValue
        let homepage = script.value(for: "homepage") ?? script.value(for: "homepageURL") ?? script.value(for: "website") ?? ""
        let icon = script.value(for: "icon") ?? script.value(for: "iconURL") ?? script.value(for: "defaulticon") ?? ""
        let details: JSONValue = [
            "name": .string(script.name),
            "namespace": text("namespace"),
            "version": text("version"),
            "description": text("description"),
            "author": text("author"),
            "homepage": .string(homepage),
            "icon": .string(icon),
            "matches": list("match"),
            "includes": list("include"),
            "excludes": list("exclude"),
            "excludeMatches": list("exclude-match"),
            "grant": list("grant"),
            "connects": list("connect"),
            "requires": .array(dependencies.filter { $0.kind == .require }.map { .string($0.declaredURL) }),
            "resources": .array(dependencies.compactMap { dependency in
                guard case .resource(let name) = dependency.kind else { return nil }
                return ["name": .string(name), "url": .string(dependency.declaredURL)]
            }),
            "runAt": .string(runAt),
            "run-at": .string(runAt),
            "noframes": .bool(script.noFrames),
            "updateURL": text("updateURL"),
            "downloadURL": text("downloadURL"),
            "supportURL": text("supportURL"),
            "uuid": .string(id.rawValue),
            "unwrap": .bool(script.entries.contains { $0.key == "unwrap" }),
        ]
        return [
            "script": details,
            "scriptMetaStr": .string(metadataBlock(of: script)),
            "scriptHandler": .string(scriptHandler),
            "version": .string(handlerVersion),
            "uuid": .string(id.rawValue),
            "scriptWillUpdate": .bool(script.value(for: "updateURL") != nil || script.value(for: "downloadURL") != nil),
            "injectInto": "page",
            "isIncognito": false,
        ]
    }

    /// The metadata block as written, from `// ==UserScript==` to the end of the
    /// `// ==/UserScript==` line; empty when the script has none.
    public static func metadataBlock(of script: UserScript) -> String {
        guard script.hasMetadataBlock else { return "" }
        let scalars = script.text.unicodeScalars
        let head = String(scalars.prefix(scalars.count - script.body.unicodeScalars.count))
        guard let marker = head.range(of: "==UserScript==") else { return head }
        // Scalars, not characters: in a CRLF file "\r\n" is one character and no "\n" is found.
        let before = head.unicodeScalars[..<marker.lowerBound]
        let lineStart = before.lastIndex(of: "\n").map { head.unicodeScalars.index(after: $0) } ?? head.startIndex
        return String(head.unicodeScalars[lineStart...])
    }
}
