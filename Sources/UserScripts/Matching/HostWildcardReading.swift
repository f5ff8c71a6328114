/// A host wildcard that runs straight into a domain (`*musicbrainz.org`), read as its author
/// plainly meant it: that domain and its subdomains.
///
/// The managers run such a rule on every host that ends in those letters, `evilmusicbrainz.org`
/// included, which anyone can register. A match pattern has no such wildcard, so PageScript used to
/// set the rule aside and the script could run nowhere. Reading it as `*.musicbrainz.org` keeps
/// every site its author meant and none that someone else could own; a rule whose rest is not
/// plainly one site (a public suffix such as `*co.uk`, a single label such as `*com`, an address)
/// stays refused.
///
/// ```swift
/// HostWildcardReading.narrowed("https://*musicbrainz.org/*")
/// // (text: "https://*.musicbrainz.org/*", domain: "musicbrainz.org")
/// ```
enum HostWildcardReading {
    /// `text` with its host `*domain` written `*.domain`, and the domain in canonical form; `nil`
    /// when the host has no such wildcard or what follows it is not plainly one site.
    static func narrowed(_ text: String, publicSuffixListPath: String = PublicSuffixList.systemPath) -> (text: String, domain: String)? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let authority = rest[..<slash]
        guard !authority.hasPrefix("["), !authority.contains("@") else { return nil }
        let colon = authority.firstIndex(of: ":")
        let host = authority[..<(colon ?? authority.endIndex)]
        guard host.hasPrefix("*"), !host.hasPrefix("*."), host.count > 1 else { return nil }
        let written = host.dropFirst()
        guard !written.contains("*"), !written.hasPrefix("."), let ascii = try? IDNA.toASCII(String(written)) else { return nil }
        let domain = ascii.hasSuffix(".") ? String(ascii.dropLast()) : ascii
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !labels.contains(where: \.isEmpty),
              domain.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }),
              labels.last?.allSatisfy(\.isNumber) == false else { return nil }
        if let list = try? PublicSuffixList.shared(at: publicSuffixListPath).get(), list.publicSuffix(of: domain).map(String.init) == domain {
            return nil
        }
        let port = colon.map { authority[$0...] } ?? ""
        return (String(text[..<separator.upperBound]) + "*." + written + port + rest[slash...], domain)
    }

    /// How the narrowed rule differs from the managers' reading, for ``SiteRule/Reading/narrowed(_:)``.
    static func explanation(domain: String) -> String {
        "`*\(domain)` is read as \(domain) and its subdomains; the managers also run it on any other host that ends in "
            + "`\(domain)`, such as `evil\(domain)`, which anyone can register"
    }
}
