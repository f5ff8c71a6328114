import UserScripts

/// Resolves a URL reference (absolute, `//host/...`, `/path`, `path`, `?query`) against a base,
/// as a browser resolves a `Location` header or a relative `@resource` URL, and reads the result
/// with UserScripts' strict parser, so that the host PageScript checks is the host it connects to.
///
/// Only the joining is done here; dot segments, backslashes, percent-encoding, userinfo and host
/// canonicalisation are ``PageURL``'s.
enum URLReference {
    /// The absolute URL `reference` names when read on the page (or file) at `base`.
    static func resolve(_ reference: String, against base: PageURL) throws(URLParseError) -> PageURL {
        let cleaned = String(reference.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
            .trimmingC0ControlsAndSpaces()
        if let scheme = schemePrefix(of: cleaned) {
            let rest = cleaned.dropFirst(scheme.count + 1)
            // `http:path` on an http page is relative, as in browsers; any other scheme is absolute.
            if scheme.lowercased() == base.scheme.rawValue, !(rest.hasPrefix("/") || rest.hasPrefix("\\")) {
                return try resolve(String(rest), against: base)
            }
            return try PageURL(cleaned)
        }
        let origin = "\(base.scheme)://\(base.host)" + (base.port.map { ":\($0)" } ?? "")
        let combined: String
        if cleaned.hasPrefix("//") || cleaned.hasPrefix("\\\\") || cleaned.hasPrefix("/\\") || cleaned.hasPrefix("\\/") {
            combined = "\(base.scheme):" + cleaned
        } else if cleaned.hasPrefix("/") || cleaned.hasPrefix("\\") {
            combined = origin + cleaned
        } else if cleaned.hasPrefix("?") {
            combined = origin + base.path + cleaned
        } else if cleaned.isEmpty || cleaned.hasPrefix("#") {
            combined = base.description
        } else {
            let directory = base.path.lastIndex(of: "/").map { String(base.path[...$0]) } ?? "/"
            combined = origin + directory + cleaned
        }
        return try PageURL(combined)
    }

    /// The scheme of an absolute URL (`https` in `https://x`), or `nil` for a relative reference.
    static func schemePrefix(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.unicodeScalars.first, first.isASCIILetter,
              candidate.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        return String(candidate)
    }
}
