import Foundation

/// One `@require` or `@resource` line as written, with its address resolved and its integrity
/// hashes read from the URL's fragment.
///
/// PageScript reads these and does nothing else with them here: fetching, caching and checking
/// the hashes, and deciding whether a script whose files are missing may run, happen where the
/// files are fetched.
///
/// ```swift
/// for file in stored.interpretation.requires {
///     print(file.url, file.integrity.map(\.description))   // https://code.jquery.com/jquery-3.7.1.min.js ["sha256-..."]
/// }
/// ```
public struct RequiredFile: Hashable, Sendable {
    /// `@resource`'s name (for `GM_getResourceText(name)`); `nil` for `@require`.
    public let name: String?
    /// The value as written after the key (after the name, for a resource).
    public let written: String
    /// The address to fetch: the written URL without its fragment, resolved against the script's
    /// `@downloadURL` (else `@updateURL`) when it is relative; `nil` when it is relative and the
    /// script names neither, or it cannot be read as a URL.
    public let url: URL?
    /// The integrity hashes from the fragment (`#sha256=...`, `#md5=...,sha256=...`,
    /// `#sha256-BASE64`); empty when there are none.
    public let integrity: [IntegrityHash]
    /// The 1-based line number.
    public let line: Int
}

/// One integrity hash from a `@require` or `@resource` URL's fragment, as the managers document
/// them: `#md5=HEX`, `#sha256=HEX` (several separated by `,` or `;`), or Subresource-Integrity style
/// `#sha256-BASE64`.
public struct IntegrityHash: Hashable, Sendable, CustomStringConvertible {
    /// How ``value`` is written.
    public enum Encoding: Hashable, Sendable {
        /// Hexadecimal digits (`#sha256=ab12...`).
        case hexadecimal
        /// Base64, Subresource-Integrity style (`#sha256-q83v...`).
        case base64
    }

    /// The algorithm, lowercase, without a dash: `md5`, `sha1`, `sha256`, `sha384`, `sha512`.
    public let algorithm: String
    /// The digest as written.
    public let value: String
    /// How the digest is written.
    public let encoding: Encoding

    /// `sha256=HEX` or `sha256-BASE64`, as written.
    public var description: String {
        encoding == .hexadecimal ? "\(algorithm)=\(value)" : "\(algorithm)-\(value)"
    }

    /// The hashes in a URL fragment (without its `#`); entries that are not hashes are skipped.
    static func parse(fragment: Substring) -> [IntegrityHash] {
        fragment.split(whereSeparator: { $0 == "," || $0 == ";" }).compactMap { part in
            let entry = part.trimmingCharacters(in: .whitespaces)
            if let equals = entry.firstIndex(of: "="), let algorithm = normalizedAlgorithm(entry[..<equals]) {
                let value = String(entry[entry.index(after: equals)...])
                guard !value.isEmpty, value.allSatisfy(\.isHexDigit) else { return nil }
                return IntegrityHash(algorithm: algorithm, value: value, encoding: .hexadecimal)
            }
            if let dash = entry.firstIndex(of: "-"), let algorithm = normalizedAlgorithm(entry[..<dash]) {
                let value = String(entry[entry.index(after: dash)...])
                guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber || "+/=_-".contains($0) }) else { return nil }
                return IntegrityHash(algorithm: algorithm, value: value, encoding: .base64)
            }
            return nil
        }
    }

    private static func normalizedAlgorithm(_ text: Substring) -> String? {
        let name = text.lowercased().replacingOccurrences(of: "-", with: "")
        return ["md5", "sha1", "sha256", "sha384", "sha512"].contains(name) ? name : nil
    }
}
