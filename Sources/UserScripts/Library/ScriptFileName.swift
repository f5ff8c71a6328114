import Foundation

/// How library and export file names are made: in the library `<slug>-<id>.user.js`, where the
/// slug is a lowercase ASCII form of the script's name at creation; in an export the script's
/// `@name` itself (``exportStem(for:)``).
enum ScriptFileName {
    static let fileExtension = ".user.js"
    private static let maximumSlugLength = 48
    /// The most bytes of a name kept in an exported file's name, leaving room within a file
    /// system's limit for `-<id>` and `.user.js`.
    private static let maximumExportStemBytes = 200

    /// `Tidy Tables!` becomes `tidy-tables`; accents are dropped (`Café` becomes `cafe`), other
    /// characters become hyphens, and a name with nothing left becomes `script`.
    static func slug(for name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingHyphen, !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
                if slug.count >= maximumSlugLength { break }
            } else {
                pendingHyphen = true
            }
        }
        return slug.isEmpty ? "script" : slug
    }

    /// An exported file's name without `.user.js`: the script's name as it is, in any script,
    /// changed only where a file system refuses it. `/`, NUL and other control characters become
    /// hyphens, leading dots go (no hidden file, no `..`), a name too long for a file name is cut
    /// at a character, and a name with nothing left becomes `script`.
    static func exportStem(for name: String) -> String {
        var stem = ""
        var bytes = 0
        for character in name.precomposedStringWithCanonicalMapping {
            let refused = character == "/" || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            let kept: Character = refused ? "-" : character
            if stem.isEmpty, kept == "." { continue }
            bytes += kept.utf8.count
            if bytes > maximumExportStemBytes { break }
            stem.append(kept)
        }
        return stem.isEmpty ? "script" : stem
    }

    static func libraryName(slug: String, id: ScriptID) -> String {
        "\(slug)-\(id.rawValue)\(fileExtension)"
    }

    /// The name a script was given when it had no `@name`: its file name without the ID and
    /// `.user.js`, hyphens read as spaces (`word-count-k3m9x2ab.user.js` is "word count").
    static func fallbackName(forFileName name: String) -> String {
        var stem = name.hasSuffix(fileExtension) ? String(name.dropLast(fileExtension.count)) : name
        if stem.hasSuffix(".js") { stem = String(stem.dropLast(3)) }
        if let id = ScriptID.fromFileName(name), id.rawValue.count == ScriptID.randomLength, stem.hasSuffix("-" + id.rawValue) {
            stem = String(stem.dropLast(id.rawValue.count + 1))
        }
        let spaced = stem.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return spaced.isEmpty ? "Untitled script" : spaced
    }
}
