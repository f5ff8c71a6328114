import Foundation

/// A script as it is stored in the library: its ID and file, its text, the fingerprint of the file
/// when it was read, and its switches.
///
/// Edit ``script`` and hand the value back to ``ScriptLibrary/save(_:overwritingChangesOnDisk:)``:
/// the fingerprint travels with it, so the save can tell whether the file changed in between.
///
/// ```swift
/// var stored = try library.find("tidy")
/// try stored.script.setValue("1.1", forKey: "version")
/// stored = try library.save(stored)
/// ```
public struct StoredScript: Hashable, Sendable, Identifiable {
    /// The script's stable identifier.
    public let id: ScriptID
    /// The script's file in the library.
    public let file: URL
    /// The script's text and metadata; edit this, then save.
    public var script: UserScript
    /// What the file looked like when it was read (or last saved).
    public let fingerprint: FileFingerprint
    /// Whether the script is switched on (a disabled script only runs on demand).
    public let isEnabled: Bool
    /// The sites where the script is switched off.
    public let disabledSites: [Site]

    /// The script's name (`@name`, or the file's name).
    public var name: String { script.name }

    /// What PageScript concludes about the script: its rules as read, what was set aside, when it
    /// runs, and its `@require` and `@resource` files.
    public var interpretation: ScriptInterpretation { script.interpretation }

    /// Whether the script is switched off on the site of `url`.
    public func isDisabled(on url: PageURL) -> Bool {
        disabledSites.contains(Site(url: url))
    }
}
