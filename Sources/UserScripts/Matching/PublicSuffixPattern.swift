import Foundation

/// An `@include` glob with Greasemonkey's `.tld`: `*://*.wikipedia.tld/*` runs on Wikipedia under
/// any public suffix the ICANN section of the Public Suffix List names.
///
/// The host is the name before `.tld` (and, with a leading `*.`, its subdomains), followed by
/// exactly the page host's ICANN public suffix: `en.wikipedia.org` and `en.wikipedia.co.uk` match
/// `*.wikipedia.tld`; `wikipedia.org.evil.com`, `en.wikipediaxorg.com` and
/// `en.wikipedia.blogspot.com` (a private suffix, anyone's to register under) do not. The scheme,
/// port and path follow the same strict reading as every other glob (``IncludeGlob``).
struct PublicSuffixPattern: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, port and path; its host is a placeholder that is never compared.
    let base: MatchPattern
    /// The labels before `.tld`, canonical: `wikipedia`, `www.example`.
    let name: String
    /// Whether the glob began with `*.`.
    let includesSubdomains: Bool

    /// The label a registered domain must have right before its public suffix, which the matcher
    /// files the pattern under: `example` for `www.example.tld`.
    var registeredLabel: Substring {
        name.split(separator: ".").last ?? Substring(name)
    }

    /// Whether a page at `url` is on a host this pattern names, judged with `suffixes`, and its
    /// scheme, port and path match.
    func matches(_ url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>, suffixes: PublicSuffixList) -> Bool {
        matches(url, pathAndQuery: pathAndQuery, publicSuffix: Self.publicSuffix(of: url.host, in: suffixes))
    }

    /// The same, with the page host's public suffix already looked up (``publicSuffix(of:in:)``),
    /// for a matcher that tries many patterns on one page.
    func matches(_ url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>, publicSuffix: Substring?) -> Bool {
        hostMatches(url.host, publicSuffix: publicSuffix) && base.matchesIgnoringHost(url, pathAndQuery: pathAndQuery)
    }

    /// The public suffix of a domain host; `nil` for an IP address or a host the list gives none.
    static func publicSuffix(of host: URLHost, in suffixes: PublicSuffixList) -> Substring? {
        guard case .domain(let domain) = host else { return nil }
        return suffixes.publicSuffix(of: domain)
    }

    private func hostMatches(_ host: URLHost, publicSuffix suffix: Substring?) -> Bool {
        guard case .domain(let domain) = host, let suffix, domain.utf8.count > suffix.utf8.count + 1 else { return false }
        let registered = domain.utf8.dropLast(suffix.utf8.count + 1)
        guard domain.utf8[registered.endIndex] == UInt8(ascii: ".") else { return false }
        let before = Substring(registered)
        if before == name { return true }
        guard includesSubdomains, before.utf8.count > name.utf8.count else { return false }
        return before.utf8.suffix(name.utf8.count).elementsEqual(name.utf8)
            && before.utf8.dropLast(name.utf8.count).last == UInt8(ascii: ".")
    }

    /// The pattern with the host spelled `name.<public suffix>`: `*://*.wikipedia.<public suffix>/*`.
    var description: String {
        let placeholder = base.description
        let host = (includesSubdomains ? "*." : "") + name + ".<public suffix>"
        guard let separator = placeholder.range(of: "://") else { return placeholder }
        let afterScheme = placeholder[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == ":" || $0 == "/" }) ?? afterScheme.endIndex
        return String(placeholder[..<separator.upperBound]) + host + String(afterScheme[authorityEnd...])
    }
}
