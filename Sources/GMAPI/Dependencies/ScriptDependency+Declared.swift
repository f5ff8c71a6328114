import UserScripts

extension ScriptDependency {
    /// The script's `@require` and `@resource` lines, in file order.
    ///
    /// Read here from the metadata entries (`UserScript/entries`): `@require URL` and
    /// `@resource NAME URL` (name and URL separated by white space). This is the one place that
    /// reads them, so that it can switch to the parsed entries of UserScripts' interpretation of
    /// each script once that exists.
    public static func declared(in script: UserScript) -> [ScriptDependency] {
        var dependencies: [ScriptDependency] = []
        for entry in script.entries {
            switch entry.key {
            case "require":
                dependencies.append(ScriptDependency(kind: .require, declaredURL: entry.value, line: entry.line))
            case "resource":
                let parts = entry.value.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
                guard let name = parts.first else { continue }
                let url = parts.count > 1 ? String(parts[1]).trimmingC0ControlsAndSpaces() : ""
                dependencies.append(ScriptDependency(kind: .resource(name: String(name)), declaredURL: url, line: entry.line))
            default:
                continue
            }
        }
        return dependencies
    }

    /// Where the script's relative `@require`/`@resource` URLs are read from: `@downloadURL`, else
    /// `@updateURL`.
    public static func baseURL(of script: UserScript) -> String? {
        script.value(for: "downloadURL") ?? script.value(for: "updateURL")
    }
}
