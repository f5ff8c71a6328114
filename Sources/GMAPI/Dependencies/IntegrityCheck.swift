import Foundation

/// One integrity hash from the fragment of a `@require` or `@resource` URL, as the managers
/// document them (Tampermonkey, "Subresource Integrity"):
///
/// - `#md5=HEX`, `#sha256=HEX` (also `sha1`, `sha384`, `sha512`), the value in hex or base64;
/// - SRI style, `#sha256-BASE64` (or hex);
/// - several, separated by `,` or `;`: `#md5=...,sha256=...`.
///
/// Tampermonkey checks only the last hash it supports; PageScript checks every one it is given,
/// since a hash that does not match means the file is not the one the author pinned. Parts of
/// the fragment that are not a known algorithm are left alone (a fragment may be anything); a
/// known algorithm whose value is neither hex nor base64 of the right length is refused.
///
/// ```swift
/// let hashes = try IntegrityCheck.parse(fragment: "md5=1B2M2Y8AsgTpgAmY7PhCfg==;sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
/// IntegrityCheck.firstMismatch(in: hashes, for: [])   // nil: both match the empty file
/// ```
public struct IntegrityCheck: Sendable, Hashable, CustomStringConvertible {
    /// The hash functions the managers support.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case md5
        case sha1
        case sha256
        case sha384
        case sha512

        /// The digest length in bytes.
        public var digestLength: Int {
            switch self {
            case .md5: 16
            case .sha1: 20
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    /// The hash function.
    public let algorithm: Algorithm
    /// The expected digest.
    public let expected: [UInt8]
    /// The part of the fragment it came from (`sha256=abc...`).
    public let written: String

    /// `sha256=HEX` as written.
    public var description: String { written }

    /// Reads a URL fragment (without `#`).
    ///
    /// - Throws: ``DependencyFailure/malformedHash(_:reason:)`` for a known algorithm with a value
    ///   that is not a digest of its length.
    public static func parse(fragment: String) throws(DependencyFailure) -> [IntegrityCheck] {
        var hashes: [IntegrityCheck] = []
        for part in fragment.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let written = part.trimmingCharacters(in: .whitespaces)
            guard let separator = written.firstIndex(where: { $0 == "=" || $0 == "-" }) else { continue }
            guard let algorithm = Algorithm(rawValue: written[..<separator].lowercased()) else { continue }
            let value = String(written[written.index(after: separator)...])
            guard let expected = decodeDigest(value, length: algorithm.digestLength) else {
                throw .malformedHash(
                    written,
                    reason: "a \(algorithm.rawValue) hash is \(algorithm.digestLength * 2) hex digits or \(algorithm.digestLength) bytes in base64"
                )
            }
            hashes.append(IntegrityCheck(algorithm: algorithm, expected: expected, written: written))
        }
        return hashes
    }

    /// Throws ``DependencyFailure/integrityMismatch(url:hash:actual:)`` when `bytes`, the file at
    /// `url`, do not match one of `hashes`: a download and a file supplied by hand are refused
    /// alike.
    public static func verify(_ bytes: [UInt8], against hashes: [IntegrityCheck], url: String) throws(DependencyFailure) {
        guard let mismatch = firstMismatch(in: hashes, for: bytes) else { return }
        throw .integrityMismatch(url: url, hash: mismatch.hash.written, actual: "\(mismatch.hash.algorithm.rawValue)=\(mismatch.actual.hexString)")
    }

    /// The first hash `bytes` do not match, with the digest they have, or `nil` when all match.
    public static func firstMismatch(in hashes: [IntegrityCheck], for bytes: [UInt8]) -> (hash: IntegrityCheck, actual: [UInt8])? {
        for hash in hashes {
            let actual = hash.algorithm.digest(bytes)
            if actual != hash.expected { return (hash, actual) }
        }
        return nil
    }

    /// Hex (either case) or base64 (standard or URL-safe, padding optional) of exactly `length` bytes.
    static func decodeDigest(_ text: String, length: Int) -> [UInt8]? {
        if text.count == length * 2, let bytes = hexBytes(text) { return bytes }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), data.count == length else { return nil }
        return Array(data)
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
