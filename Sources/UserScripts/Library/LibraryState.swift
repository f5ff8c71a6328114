/// The switches kept outside the scripts' text, in `.pagescript-state.json` in the library:
/// which scripts are disabled, on which sites each is disabled, and which script is each site's
/// own. A script not mentioned is enabled everywhere.
///
/// ```json
/// {
///   "format" : 1,
///   "scripts" : {
///     "k3m9x2ab" : { "disabledOn" : [ "localhost:3000" ], "enabled" : false }
///   },
///   "sites" : { "example.com" : "k3m9x2ab" }
/// }
/// ```
struct LibraryState: Codable, Equatable, Sendable {
    /// The version of this layout; a newer one is refused rather than misread.
    static let currentFormat = 1

    struct ScriptEntry: Codable, Equatable, Sendable {
        var enabled: Bool?
        var disabledOn: [String]?

        var isEmpty: Bool { (enabled ?? true) && (disabledOn ?? []).isEmpty }
    }

    var format = LibraryState.currentFormat
    var scripts: [String: ScriptEntry] = [:]
    /// Site (``Site/description``) to the ID of that site's script.
    var sites: [String: String] = [:]

    func isEnabled(_ id: ScriptID) -> Bool {
        scripts[id.rawValue]?.enabled ?? true
    }

    func disabledSites(_ id: ScriptID) -> [Site] {
        (scripts[id.rawValue]?.disabledOn ?? []).compactMap { try? Site($0) }.sorted()
    }

    mutating func update(_ id: ScriptID, _ change: (inout ScriptEntry) -> Void) {
        var entry = scripts[id.rawValue] ?? ScriptEntry()
        change(&entry)
        scripts[id.rawValue] = entry.isEmpty ? nil : entry
    }

    mutating func forget(_ id: ScriptID) {
        scripts[id.rawValue] = nil
        sites = sites.filter { $0.value != id.rawValue }
    }
}
