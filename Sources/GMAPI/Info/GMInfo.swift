import SystemSupport
import UserScripts

/// Builds `GM_info`: the script's parsed metadata as the managers expose it, and who runs it.
///
/// The object has the members Tampermonkey documents and the ones Violentmonkey adds:
///
/// ```json
/// {"script": {"name": "Tidy", "namespace": "https://example.com", "version": "1.2", "description": "...",
///             "author": "", "copyright": "", "homepage": "", "icon": "", "icon64": "", "matches": ["*://example.com/*"],
///             "includes": [], "excludes": [], "excludeMatches": [], "grant": ["GM_getValue"], "connects": ["api.example.com"],
///             "requires": ["https://code.jquery.com/jquery-3.7.1.min.js"], "require": [...],
///             "resources": [{"name": "css", "url": "https://example.com/a.css"}], "antifeatures": {"ads": {"default": "..."}},
///             "name_i18n": {"de": "..."}, "description_i18n": {}, "blockers": [], "webRequest": null,
///             "runAt": "document-idle", "run-at": "document-idle", "noframes": false, "unwrap": false,
///             "updateURL": "", "downloadURL": "", "supportURL": "", "fileURL": null, "header": "// ==UserScript==...",
///             "lastModified": 0, "position": 1, "uuid": "k3m9x2ab", "options": {"check_for_updates": false, ...}},
///  "scriptMetaStr": "// ==UserScript==\n...// ==/UserScript==\n", "scriptHandler": "PageScript", "version": "0.1.0",
///  "uuid": "k3m9x2ab", "scriptUpdateURL": null, "scriptWillUpdate": false, "downloadMode": "native",
///  "isIncognito": false, "sandboxMode": "raw", "injectInto": "page",
///  "platform": {"os": "linux", "arch": "x86-64", "browserName": "chrome", "browserVersion": "156.0.7000.0",
///               "fullVersionList": [{"brand": "Chromium", "version": "156.0.7000.0"}], "mobile": false},
///  "userAgentData": {"brands": [{"brand": "Chromium", "version": "156"}], "mobile": false, "platform": "Linux"}}
/// ```
///
/// Absent text fields are `""`, as in Violentmonkey (Tampermonkey gives `null`), so that
/// `GM_info.script.version.split(".")` does not throw. `runAt` (Violentmonkey) and `run-at`
/// (Tampermonkey) are both given; a script without `@run-at` reports `document-idle`,
/// Tampermonkey's default. What PageScript cannot know is given as Tampermonkey gives it for a
/// script installed from a file and never updated: `fileURL` `null`, `lastModified` `0`,
/// `position` `1`. `downloadMode` is `native` (PageScript saves `GM_download` files itself),
/// `isIncognito` `false`, `sandboxMode` `raw` in the page's world and `dom` in an isolated one
/// (``GMEnvironment/isolated``). `antifeatures` maps each `@antifeature` type to its descriptions
/// by locale, `default` for the line without one.
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
    ///   - environment: The browser and world the script runs in (`platform`, `userAgentData`,
    ///     `sandboxMode`, `injectInto`).
    public static func make(for script: UserScript, id: ScriptID, handlerVersion: String,
                            environment: GMEnvironment = GMEnvironment()) -> JSONValue {
        let runAt = script.value(for: "run-at") ?? RunAt.documentIdle.rawValue
        let metadata = metadataBlock(of: script)
        let updateURL = script.value(for: "updateURL") ?? script.value(for: "downloadURL")
        return [
            "script": scriptDetails(of: script, id: id, runAt: runAt, metadata: metadata),
            "scriptMetaStr": .string(metadata),
            "scriptHandler": .string(scriptHandler),
            "version": .string(handlerVersion),
            "uuid": .string(id.rawValue),
            "scriptUpdateURL": updateURL.map(JSONValue.string) ?? .null,
            "scriptWillUpdate": .bool(updateURL != nil),
            "downloadMode": "native",
            "isIncognito": false,
            "sandboxMode": .string(environment.isolated ? "dom" : "raw"),
            "injectInto": .string(environment.isolated ? "content" : "page"),
            "platform": platform(of: environment),
            "userAgentData": userAgentData(of: environment),
        ]
    }

    /// `GM_info.script`.
    static func scriptDetails(of script: UserScript, id: ScriptID, runAt: String, metadata: String) -> JSONValue {
        func text(_ key: String) -> JSONValue { .string(script.value(for: key) ?? "") }
        func list(_ key: String) -> JSONValue { .array(script.values(for: key).map(JSONValue.string)) }
        let dependencies = ScriptDependency.declared(in: script)
        let homepage = script.value(for: "homepage") ?? script.value(for: "homepageURL") ?? script.value(for: "website")
            ?? script.value(for: "source") ?? ""
        let icon = script.value(for: "icon") ?? script.value(for: "iconURL") ?? script.value(for: "defaulticon") ?? ""
        let icon64 = script.value(for: "icon64") ?? script.value(for: "icon64URL") ?? ""
        let requires = JSONValue.array(dependencies.filter { $0.kind == .require }.map { .string($0.declaredURL) })
        let unwrap = script.entries.contains { $0.key == "unwrap" }
        return [
            "name": .string(script.name),
            "namespace": text("namespace"),
            "version": text("version"),
            "description": text("description"),
            "author": text("author"),
            "copyright": text("copyright"),
            "homepage": .string(homepage),
            "icon": .string(icon),
            "icon64": .string(icon64),
            "matches": list("match"),
            "includes": list("include"),
            "excludes": list("exclude"),
            "excludeMatches": list("exclude-match"),
            "grant": list("grant"),
            "connects": list("connect"),
            "requires": requires,
            "require": requires,
            "resources": .array(dependencies.compactMap { dependency in
                guard case .resource(let name) = dependency.kind else { return nil }
                return ["name": .string(name), "url": .string(dependency.declaredURL)]
            }),
            "antifeatures": localized(script, "antifeature", keyedByFirstWord: true),
            "name_i18n": localized(script, "name", keyedByFirstWord: false),
            "description_i18n": localized(script, "description", keyedByFirstWord: false),
            "blockers": [],
            "webRequest": .null,
            "runAt": .string(runAt),
            "run-at": .string(runAt),
            "noframes": .bool(script.noFrames),
            "unwrap": .bool(unwrap),
            "updateURL": text("updateURL"),
            "downloadURL": text("downloadURL"),
            "supportURL": text("supportURL"),
            "fileURL": .null,
            "header": .string(metadata),
            "lastModified": 0,
            "position": 1,
            "uuid": .string(id.rawValue),
            "options": options(of: script, runAt: runAt, unwrap: unwrap),
        ]
    }

    /// Tampermonkey's `script.options`: the user's overrides, none here.
    static func options(of script: UserScript, runAt: String, unwrap: Bool) -> JSONValue {
        func list(_ key: String) -> JSONValue { .array(script.values(for: key).map(JSONValue.string)) }
        let sandbox = script.value(for: "sandbox").map(JSONValue.string) ?? .null
        return [
            "check_for_updates": .bool(script.value(for: "updateURL") != nil || script.value(for: "downloadURL") != nil),
            "comment": .null,
            "compatopts_for_requires": true,
            "compat_wrappedjsobject": false,
            "compat_metadata": false,
            "compat_foreach": false,
            "compat_powerful_this": .null,
            "sandbox": sandbox,
            "noframes": .bool(script.noFrames),
            "unwrap": .bool(unwrap),
            "run_at": .string(runAt),
            "run_in": .null,
            "override": [
                "use_includes": [], "orig_includes": list("include"), "merge_includes": true,
                "use_matches": [], "orig_matches": list("match"), "merge_matches": true,
                "use_excludes": [], "orig_excludes": list("exclude"), "merge_excludes": true,
                "use_connects": [], "orig_connects": list("connect"), "merge_connects": true,
                "use_blockers": [], "orig_run_at": .string(runAt), "orig_noframes": .bool(script.noFrames),
            ],
        ]
    }

    /// `@key:locale` values by locale (`name_i18n`), or, for `@antifeature type text`, each type's
    /// texts by locale (`default` for the line without one).
    static func localized(_ script: UserScript, _ key: String, keyedByFirstWord: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for entry in script.entries where entry.baseKey == key {
            let locale = entry.locale
            guard keyedByFirstWord else {
                if let locale, !members.contains(where: { $0.key == locale }) { members.append((locale, .string(entry.value))) }
                continue
            }
            let words = entry.value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard let type = words.first.map(String.init) else { continue }
            let text = JSONValue.string(words.count > 1 ? String(words[1].drop { $0 == " " || $0 == "\t" }) : "")
            let place = locale ?? "default"
            if let index = members.firstIndex(where: { $0.key == type }) {
                if case .object(var texts) = members[index].value, !texts.contains(where: { $0.key == place }) {
                    texts.append((place, text))
                    members[index] = (type, .object(texts))
                }
            } else {
                members.append((type, .object([(place, text)])))
            }
        }
        return .object(members)
    }

    /// `GM_info.platform`, as Violentmonkey gives it.
    static func platform(of environment: GMEnvironment) -> JSONValue {
        let brand = brandName(of: environment.browserName)
        return [
            "os": .string(environment.os),
            "arch": .string(environment.arch),
            "browserName": .string(brand == "Chromium" ? "chrome" : brand.lowercased()),
            "browserVersion": .string(environment.browserVersion),
            "fullVersionList": brand.isEmpty ? [] : [["brand": .string(brand), "version": .string(environment.browserVersion)]],
            "mobile": false,
        ]
    }

    /// `GM_info.userAgentData`, as Tampermonkey gives it (the low-entropy values of
    /// `navigator.userAgentData`).
    static func userAgentData(of environment: GMEnvironment) -> JSONValue {
        let brand = brandName(of: environment.browserName)
        let major = environment.browserVersion.split(separator: ".").first.map(String.init) ?? ""
        let platform = switch environment.os {
        case "win": "Windows"
        case "mac": "macOS"
        case "cros": "Chrome OS"
        case "android": "Android"
        default: "Linux"
        }
        return [
            "brands": brand.isEmpty ? [] : [["brand": .string(brand), "version": .string(major)]],
            "mobile": false,
            "platform": .string(platform),
        ]
    }

    /// The browser's brand (`Chromium`, `Firefox`, `WebKitGTK`) from the name its driver reports.
    static func brandName(of browserName: String) -> String {
        switch browserName.lowercased() {
        case "": ""
        case "chrome", "chromium", "chrome-headless-shell", "headless chrome": "Chromium"
        case "firefox": "Firefox"
        case "minibrowser", "webkitgtk", "webkit": "WebKitGTK"
        default: browserName
        }
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
