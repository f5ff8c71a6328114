import SystemSupport

/// The reading and wording both backups share: flags as the managers store them, addresses, and
/// the lines that say what is not carried over.
enum BackupText {
    /// How a userscript's file name ends.
    static let scriptSuffix = ".user.js"

    /// A switch as the managers store it: `true`/`false` or `1`/`0`; `nil` for anything else.
    static func flag(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag)?: flag
        case .integer(let number)?: number != 0
        case .number(let number)?: number != 0
        default: nil
        }
    }

    /// `text` when it is an http or https address, which `scripts update` can check.
    static func address(_ text: String) -> String? {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://") ? text : nil
    }

    /// A setting as JSON for the report; `nil` when it is unset (null, empty).
    static func setting(_ value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text) where text.isEmpty: return nil
        case .array(let values) where values.isEmpty: return nil
        case .object(let pairs) where pairs.isEmpty: return nil
        case .array(let values) where values.allSatisfy({ $0.stringValue != nil }):
            return values.compactMap(\.stringValue).joined(separator: ", ")
        default:
            let json = value.serialized
            return json.count > 80 ? String(json.prefix(80)) + "…" : json
        }
    }

    /// What a Violentmonkey `custom` setting is, for the report.
    static func label(forViolentmonkey key: String) -> String {
        switch key {
        case "runAt": "@run-at"
        case "noframes": "@noframes"
        case "injectInto": "@inject-into"
        case "name": "a name"
        case "comment": "a note"
        case "tag": "tags"
        case "icon": "an icon"
        case "homepageURL": "a home page"
        case "downloadURL": "a download address"
        case "updateURL": "an update address"
        default: "a setting"
        }
    }

    /// Updates switched off in the manager.
    static func updatesOff(_ place: String) -> String {
        "not carried over: automatic updates were off (\(place)); PageScript updates a script only when `pagescript scripts update` is run"
    }

    /// The manager's order of the scripts.
    static func orderNotCarried(_ manager: String) -> String {
        "not carried over: the order the scripts had in \(manager) (position); PageScript runs them by @run-at, then by name"
    }

    /// Entries the import does not read.
    static func notRead(_ names: [String]) -> String {
        "not read: " + names.sorted().map(ZipError.quoted).joined(separator: ", ")
    }
}
