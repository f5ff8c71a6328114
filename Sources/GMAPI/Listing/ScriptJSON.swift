import Foundation
import SystemSupport
import UserScripts

/// The library's scripts as JSON, for programs: `scripts list --json`, `scripts which --json`
/// and `scripts show --json`. Text is left as it is (JSON escapes what it must; nothing here
/// goes to a terminal unescaped).
///
/// ```swift
/// let files = DependencyCache(libraryDirectory: library.directory)
/// JSONValue.array(try library.scripts().map { ScriptJSON.summary(of: $0, files: files) }).serialized
/// // [{"id":"k3m9x2ab","name":"Tidy tables","enabled":true,"disabledSites":[],"runs":"automatically at document-idle",...}]
/// ```
public enum ScriptJSON {
    /// One script as `scripts list` shows it: `id`, `name`, `enabled`, `disabledSites`, `runs`
    /// (when it runs, in words), `runsAutomatically`, `blocked` (why its missing files keep it
    /// from running, or `null`) and `rules` (each `{"line","rule"}`).
    public static func summary(of stored: StoredScript, files: DependencyCache) -> JSONValue {
        let interpretation = stored.interpretation
        return [
            "id": .string(stored.id.rawValue),
            "name": .string(stored.name),
            "enabled": .bool(stored.isEnabled),
            "disabledSites": .array(stored.disabledSites.map(\.description).sorted().map(JSONValue.string)),
            "runs": .string(interpretation.runModeDescription),
            "runsAutomatically": .bool(interpretation.runsAutomatically),
            "blocked": files.blockReason(for: stored).map(JSONValue.string) ?? .null,
            "rules": .array(interpretation.rules.map(rule)),
        ]
    }

    /// One script on a page as `scripts which` shows it: `id`, `name`, `runsAutomatically`,
    /// `status` (`runs at document-idle`, `disabled`, `does not run`, ...) and `reason` (the rule
    /// that decided it, or why none did); a script whose files are missing has them as `status`.
    public static func onPage(_ entry: ScriptOnPage, files: DependencyCache) -> JSONValue {
        let (status, reason) = entry.explanation
        let blocked = entry.runsAutomatically ? files.blockReason(for: entry.script) : nil
        return [
            "id": .string(entry.script.id.rawValue),
            "name": .string(entry.script.name),
            "runsAutomatically": .bool(entry.runsAutomatically && blocked == nil),
            "status": .string(blocked ?? status),
            "reason": .string(reason),
        ]
    }

    /// One script as `scripts show` tells it: ``summary(of:files:)``'s members, and `file`, `grants`,
    /// `noframes`, `requires` and `resources` (each `{"line","name","url"}`), `notes` (what was
    /// set aside or ignored, in words) and `report` (the lines `scripts show` prints).
    public static func details(of stored: StoredScript, files: DependencyCache) -> JSONValue {
        let interpretation = stored.interpretation
        guard case var .object(members) = summary(of: stored, files: files) else { return .null }
        members.insert((key: "file", value: .string(stored.file.path(percentEncoded: false))), at: 0)
        members += [
            (key: "grants", value: .array(interpretation.grants.map(JSONValue.string))),
            (key: "noframes", value: .bool(interpretation.noFrames)),
            (key: "requires", value: .array(interpretation.requires.map(file))),
            (key: "resources", value: .array(interpretation.resources.map(file))),
            (key: "notes", value: .array(interpretation.notes.map { .string($0.description) })),
            (key: "report", value: .array(interpretation.report.map(JSONValue.string))),
        ]
        return .object(members)
    }

    private static func rule(_ rule: SiteRule) -> JSONValue {
        ["line": .integer(Int64(rule.line)), "rule": .string(rule.description)]
    }

    private static func file(_ file: RequiredFile) -> JSONValue {
        ["line": .integer(Int64(file.line)), "name": file.name.map(JSONValue.string) ?? .null, "url": .string(file.written)]
    }
}
