/// An `@exclude` glob read the way the userscript managers read it: against the whole address,
/// with `*` matching any run of characters across scheme, host and path, and letters in any case.
///
/// PageScript reads `@include` globs strictly (each `*` within its own part of the address), which
/// can only narrow where a script runs. An exclusion read that way could narrow what it excludes,
/// and so widen where the script runs, so exclusions get the managers' broad reading instead:
/// `*logout*` excludes every address containing `logout`, wherever it is. Greasemonkey's `.tld`
/// in an exclusion stands for any suffix at all, which excludes at least the public ones.
struct URLGlob: Hashable, Sendable, CustomStringConvertible {
    /// The glob as written.
    let text: String
    private let pieces: WildcardPieces

    init(_ text: String) {
        self.text = text
        var lowered = Array(text.utf8).map(IDNA.asciiLowercased)
        Self.widenTopLevelDomains(&lowered)
        pieces = WildcardPieces(lowered)
    }

    /// `.tld` before `/`, `:` or the end becomes `.*`.
    private static func widenTopLevelDomains(_ bytes: inout [UInt8]) {
        let marker = Array(".tld".utf8)
        var index = 0
        while index + marker.count <= bytes.count {
            let after = index + marker.count
            if bytes[index..<after].elementsEqual(marker),
               after == bytes.count || bytes[after] == UInt8(ascii: "/") || bytes[after] == UInt8(ascii: ":") {
                bytes.replaceSubrange((index + 1)..<after, with: [UInt8(ascii: "*")])
                index += 2
            } else {
                index += 1
            }
        }
    }

    /// Whether the glob matches the whole of `subject`, which must already be lowercase.
    func matches(lowercased subject: UnsafeBufferPointer<UInt8>) -> Bool {
        pieces.matches(subject)
    }

    var description: String { text }
}
