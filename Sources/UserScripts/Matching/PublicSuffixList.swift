import Foundation

/// The ICANN section of the Public Suffix List: the suffixes under which anyone can register a
/// domain (`com`, `co.uk`, `kawasaki.jp`'s wildcard), used to expand Greasemonkey's `.tld`.
///
/// Only the ICANN section counts. The private section lists suffixes such as `blogspot.com` and
/// `github.io`, under which anyone can get a subdomain: reading `en.wikipedia.blogspot.com` as a
/// Wikipedia site would hand a script for Wikipedia to whoever registered that blog. A host whose
/// suffix no rule of the section names (an undelegated or private top-level domain) has no public
/// suffix here, so no `.tld` rule matches it.
///
/// The list comes from Debian's `publicsuffix` package and is read when a `.tld` rule is first
/// needed, never downloaded; when it is missing, `.tld` rules match nothing and say why.
///
/// ```swift
/// let list = try PublicSuffixList(contentsOf: PublicSuffixList.systemPath)
/// list.publicSuffix(of: "en.wikipedia.co.uk")   // "co.uk"
/// list.publicSuffix(of: "x.blogspot.com")       // "com"
/// ```
public final class PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private let rules: Set<String>
    /// `*.kawasaki.jp` is kept as `kawasaki.jp`.
    private let wildcardParents: Set<String>
    /// `!city.kawasaki.jp` is kept as `city.kawasaki.jp`.
    private let exceptions: Set<String>

    /// The number of rules read from the ICANN section.
    public var count: Int { rules.count + wildcardParents.count + exceptions.count }

    /// Reads the list at `path`.
    ///
    /// - Throws: ``PublicSuffixListError`` when the file cannot be read or has no ICANN section.
    public convenience init(contentsOf path: String) throws(PublicSuffixListError) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path).bytes
        } catch {
            throw PublicSuffixListError(path: path, reason: error.isNotFound ? "it does not exist" : "it cannot be read (\(error.message))")
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Reads the list from its text; `path` names it in errors.
    convenience init(text: String, path: String) throws(PublicSuffixListError) {
        try self.init(bytes: Array(text.utf8), path: path)
    }

    /// Reads the list from its UTF-8, line by line as bytes (it is read at a process's first
    /// `.tld` lookup, so its 10,000 lines must not cost a character-by-character walk).
    init(bytes: [UInt8], path: String) throws(PublicSuffixListError) {
        var rules: Set<String> = []
        var wildcardParents: Set<String> = []
        var exceptions: Set<String> = []
        var inICANNSection = false
        var sawSection = false
        let begin = Array("// ===BEGIN ICANN DOMAINS===".utf8)
        let end = Array("// ===END ICANN DOMAINS===".utf8)
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            if line.starts(with: begin) {
                inICANNSection = true
                sawSection = true
                continue
            }
            if line.starts(with: end) { break }
            guard inICANNSection, !line.starts(with: [0x2F, 0x2F]),
                  let rule = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).first else { continue }
            if rule.first == UInt8(ascii: "!") {
                if let name = Self.canonical(rule.dropFirst()) { exceptions.insert(name) }
            } else if rule.starts(with: [UInt8(ascii: "*"), UInt8(ascii: ".")]) {
                if let name = Self.canonical(rule.dropFirst(2)) { wildcardParents.insert(name) }
            } else if let name = Self.canonical(rule) {
                rules.insert(name)
            }
        }
        guard sawSection, !rules.isEmpty else {
            throw PublicSuffixListError(path: path, reason: "it has no ICANN section (`// ===BEGIN ICANN DOMAINS===`)")
        }
        self.rules = rules
        self.wildcardParents = wildcardParents
        self.exceptions = exceptions
    }

    /// A rule as hosts are compared: lowercase ASCII, internationalised labels in Punycode.
    static func canonical(_ rule: ArraySlice<UInt8>) -> String? {
        // Most rules are lowercase letters, digits, `-` and `.`, already canonical; the rest
        // (uppercase, non-ASCII, Punycode to check) go through IDNA.
        let plain = rule.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        let text = String(decoding: rule, as: UTF8.self)
        if plain, !text.contains("xn--"), !text.hasPrefix("."), !text.hasSuffix("."), !text.contains("..") { return text }
        return try? IDNA.toASCII(text)
    }

    /// The ICANN public suffix of a canonical domain name, or `nil` when no rule of the section
    /// covers it (or the name is itself a suffix's wildcard member with nothing registered under it).
    ///
    /// The longest matching rule wins, and an exception rule (`!city.kawasaki.jp`) wins over the
    /// wildcard it is an exception to, as the list's own algorithm says.
    public func publicSuffix(of domain: String) -> Substring? {
        var start = domain.startIndex
        while start < domain.endIndex {
            let candidate = domain[start...]
            let nextLabel = candidate.firstIndex(of: ".").map { domain.index(after: $0) }
            if exceptions.contains(String(candidate)) {
                return nextLabel.map { domain[$0...] }
            }
            if rules.contains(String(candidate)) { return candidate }
            if let nextLabel, wildcardParents.contains(String(domain[nextLabel...])) { return candidate }
            guard let nextLabel else { break }
            start = nextLabel
        }
        return nil
    }

    /// The list at `path`, read once per process and shared; a failure is not remembered, so a
    /// list installed later is found.
    public static func shared(at path: String) -> Result<PublicSuffixList, PublicSuffixListError> {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let list = cache[path] { return .success(list) }
        do {
            let list = try PublicSuffixList(contentsOf: path)
            cache[path] = list
            return .success(list)
        } catch {
            return .failure(error)
        }
    }

    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [String: PublicSuffixList] = [:]
}

/// Why the Public Suffix List cannot be used; `.tld` rules then match nothing.
public struct PublicSuffixListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the list was looked for.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    /// "the Public Suffix List at PATH REASON; ..."
    public var description: String {
        "the Public Suffix List at \(path) cannot be used: \(reason). `.tld` rules match no page until it is installed (Debian package `publicsuffix`)"
    }
}
