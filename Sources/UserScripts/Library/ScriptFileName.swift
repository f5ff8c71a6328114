import Foundation

/// How library and export file names are made: `<slug>-<id>.user.js`, where the slug is a
/// lowercase ASCII form of the script's name at creation.
enum ScriptFileName {
    static let fileExtension = ".user.js"
    private static let maximumSlugLength = 48

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
