import Foundation

/// Domain-name canonicalisation ("domain to ASCII"): the step that turns a host such as
/// `Bücher.example` into `xn--bcher-kva.example` before hosts are compared.
///
/// Browsers apply the full UTS #46 mapping table. PageScript does not ship that table; it maps
/// what it can derive with certainty from Unicode properties (NFKC, lowercasing, the ideographic
/// full stops, the code points UTS #46 ignores) and refuses every label where its result could
/// differ from a browser's: a character whose lowercase and case-folded forms disagree (`ẞ`,
/// Cherokee), or anything that is not a letter, mark, digit or hyphen. A refused host matches no
/// script, which is the safe outcome; a host computed differently from the browser's could match
/// the wrong one.
enum IDNA {
    /// Label separators UTS #46 maps to `.`: ideographic, fullwidth and halfwidth ideographic full stops.
    private static let labelSeparators: Set<UInt32> = [0x3002, 0xFF0E, 0xFF61]

    /// Converts a host (already percent-decoded) to its ASCII form, label by label.
    static func toASCII(_ host: String) throws(URLParseError) -> String {
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = host.utf8.map(asciiLowercased)
            let lowered = String(decoding: bytes, as: UTF8.self)
            guard hasACELabel(bytes) else { return lowered }
            var unicodeLabels: [[Unicode.Scalar]] = []
            for label in lowered.split(separator: ".", omittingEmptySubsequences: false) {
                unicodeLabels.append(try checkACELabel(label, host: host) ?? Array(label.unicodeScalars))
            }
            try checkBidiRule(unicodeLabels, host: host)
            return lowered
        }
        let mapped = try map(host, original: host)
        var labels: [String] = []
        var unicodeLabels: [[Unicode.Scalar]] = []
        for label in mapped.split(separator: ".", omittingEmptySubsequences: false) {
            labels.append(try asciiLabel(label, host: host))
            unicodeLabels.append(try checkACELabel(label, host: host) ?? Array(label.unicodeScalars))
        }
        try checkBidiRule(unicodeLabels, host: host)
        return labels.joined(separator: ".")
    }

    /// Whether a label starts with `xn--` (the bytes are already lowercase); checked byte by byte
    /// because this runs for every URL.
    private static func hasACELabel(_ bytes: [UInt8]) -> Bool {
        let prefix: [UInt8] = Array("xn--".utf8)
        var labelStart = 0
        while labelStart + prefix.count <= bytes.count {
            if bytes[labelStart..<(labelStart + prefix.count)].elementsEqual(prefix) { return true }
            guard let dot = bytes[labelStart...].firstIndex(of: UInt8(ascii: ".")) else { return false }
            labelStart = dot + 1
        }
        return false
    }

    /// The UTS #46 mapping step, restricted to what Unicode properties determine exactly.
    private static func map(_ text: String, original: String) throws(URLParseError) -> String {
        var prepared = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isIgnored(scalar) {
            if labelSeparators.contains(scalar.value) {
                prepared.append(".")
                continue
            }
            if !scalar.isASCII, !isDeviation(scalar) {
                let compatible = String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars
                // NFKC turns `․` (U+2024) into `.` and `℀` into `a/c`, but UTS #46 disallows them;
                // and it turns `ϲ` (U+03F2) into `ς`, which UTS #46 keeps only when written as such.
                if compatible.contains(where: { isASCIIPunctuation($0) || isDeviation($0) }) {
                    throw .invalidHost(original, reason: "\(describe(scalar)) is not allowed in a host name")
                }
            }
            prepared.append(scalar)
        }
        let compatible = String(prepared).precomposedStringWithCompatibilityMapping
        var lowered = String.UnicodeScalarView()
        for scalar in compatible.unicodeScalars {
            if scalar.isASCII {
                lowered.append(Unicode.Scalar(asciiLowercased(UInt8(scalar.value))))
            } else if labelSeparators.contains(scalar.value) {
                lowered.append(".")
            } else if isDeviation(scalar) {
                // Browsers follow UTS #46 non-transitional processing: ß and ς are kept as written.
                lowered.append(scalar)
            } else if scalar.properties.changesWhenLowercased {
                for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                    guard !lower.properties.changesWhenCaseFolded else {
                        throw .invalidHost(original, reason: "\(describe(scalar)) maps differently in different browsers")
                    }
                    lowered.append(lower)
                }
            } else if scalar.properties.changesWhenCaseFolded {
                throw .invalidHost(original, reason: "\(describe(scalar)) maps differently in different browsers")
            } else {
                lowered.append(scalar)
            }
        }
        return String(lowered).precomposedStringWithCanonicalMapping
    }

    /// One mapped label in ASCII: kept as is when it is ASCII, otherwise `xn--` and its Punycode.
    private static func asciiLabel(_ label: Substring, host: String) throws(URLParseError) -> String {
        if label.utf8.allSatisfy({ $0 < 0x80 }) {
            try checkACELabel(label, host: host)
            return String(label)
        }
        let scalars = Array(label.unicodeScalars)
        try checkUnicodeLabel(scalars, host: host)
        guard let encoded = Punycode.encode(scalars) else {
            throw .invalidHost(host, reason: "the label `\(label)` is too long")
        }
        return "xn--" + encoded
    }

    /// An ASCII label starting with `xn--` must decode to a label that is itself valid and already
    /// canonical; browsers refuse the others, so they must never be matched. Returns the decoded
    /// label, or `nil` for a label that is not an `xn--` label.
    @discardableResult
    private static func checkACELabel(_ label: Substring, host: String) throws(URLParseError) -> [Unicode.Scalar]? {
        guard label.hasPrefix("xn--") else { return nil }
        guard let decoded = Punycode.decode(label.dropFirst(4)), !decoded.isEmpty else {
            throw .invalidHost(host, reason: "the label `\(label)` is not valid Punycode")
        }
        guard decoded.contains(where: { !$0.isASCII }) else {
            throw .invalidHost(host, reason: "the label `\(label)` encodes only ASCII characters")
        }
        try checkUnicodeLabel(decoded, host: host)
        var text = String.UnicodeScalarView()
        text.append(contentsOf: decoded)
        let unicode = String(text)
        guard try map(unicode, original: host) == unicode else {
            throw .invalidHost(host, reason: "the label `\(label)` is not in canonical form")
        }
        return decoded
    }

    /// The bidirectional-text classes the Bidi Rule (RFC 5893) distinguishes, for the characters a
    /// label can hold after ``checkUnicodeLabel(_:host:)``.
    private enum BidiClass {
        case leftToRight, rightToLeft, arabicNumber, europeanNumber, nonspacingMark, neutral
    }

    /// The bidi class, from Unicode blocks: Swift exposes no Bidi_Class property. Hebrew, Arabic,
    /// Syriac, Thaana, NKo and the other right-to-left blocks are right-to-left; Arabic-Indic digits
    /// are Arabic numbers; marks are nonspacing. An error here can only refuse a host a browser
    /// would accept or accept one a browser refuses (and then opens no page), never change the host.
    private static func bidiClass(_ scalar: Unicode.Scalar) -> BidiClass {
        switch scalar.value {
        case 0x30...0x39, 0x06F0...0x06F9: return .europeanNumber
        case 0x41...0x5A, 0x61...0x7A: return .leftToRight
        case 0x00...0x7F: return .neutral
        case 0x0660...0x0669, 0x066B...0x066C, 0x06DD, 0x0890...0x0891, 0x08E2, 0x10D30...0x10D39, 0x10E60...0x10E7E:
            return .arabicNumber
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return .nonspacingMark
        default: break
        }
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            return .rightToLeft
        default:
            return .leftToRight
        }
    }

    /// The Bidi Rule, which browsers apply (`CheckBidi`) to every label of a domain that contains
    /// right-to-left characters or Arabic numbers.
    private static func checkBidiRule(_ labels: [[Unicode.Scalar]], host: String) throws(URLParseError) {
        let classes = labels.map { $0.map(bidiClass) }
        guard classes.contains(where: { $0.contains { $0 == .rightToLeft || $0 == .arabicNumber } }) else { return }
        for labelClasses in classes where !labelClasses.isEmpty {
            let lastStrong = labelClasses.last { $0 != .nonspacingMark }
            let valid: Bool
            switch labelClasses[0] {
            case .rightToLeft:
                valid = !labelClasses.contains(.leftToRight)
                    && [.rightToLeft, .europeanNumber, .arabicNumber].contains(lastStrong)
                    && !(labelClasses.contains(.europeanNumber) && labelClasses.contains(.arabicNumber))
            case .leftToRight:
                valid = !labelClasses.contains(.rightToLeft) && !labelClasses.contains(.arabicNumber)
                    && [.leftToRight, .europeanNumber].contains(lastStrong)
            default:
                valid = false
            }
            guard valid else {
                throw .invalidHost(host, reason: "it mixes right-to-left and left-to-right text in a way browsers refuse")
            }
        }
    }

    /// The validity criteria PageScript checks on a Unicode label: NFC, no leading combining mark,
    /// and only letters, marks, decimal digits, hyphens (and ASCII, checked later by the host parser).
    private static func checkUnicodeLabel(_ scalars: [Unicode.Scalar], host: String) throws(URLParseError) {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        let label = String(text)
        guard label.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(scalars) else {
            throw .invalidHost(host, reason: "the label `\(label)` is not in Unicode normalisation form C")
        }
        if let first = scalars.first, isMark(first) {
            throw .invalidHost(host, reason: "the label `\(label)` starts with a combining mark")
        }
        for scalar in scalars where !scalar.isASCII {
            guard isDeviation(scalar) || isAllowed(scalar) else {
                throw .invalidHost(host, reason: "\(describe(scalar)) is not allowed in a host name")
            }
        }
    }

    private static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-": return false
        default: return true
        }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        // Default-ignorable letters such as the Hangul fillers are invisible; UTS #46 disallows them.
        guard !scalar.properties.changesWhenLowercased, !scalar.properties.isDefaultIgnorableCodePoint else { return false }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func isDeviation(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{00DF}" || scalar == "\u{03C2}"
    }

    /// Code points UTS #46 removes ("ignored"): soft hyphen, combining grapheme joiner, Mongolian
    /// free variation selectors, zero width space, word joiner, variation selectors, byte order mark.
    private static func isIgnored(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x034F, 0x180B...0x180D, 0x180F, 0x200B, 0x2060, 0xFE00...0xFE0F, 0xFEFF, 0xE0100...0xE01EF:
            true
        default:
            false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        return "`\(scalar)` (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
