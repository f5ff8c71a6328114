import Foundation

/// The language a browser tells pages (`navigator.language`, `Accept-Language`): always a valid
/// BCP 47 tag, so that `new Intl.DateTimeFormat(navigator.language)` never throws.
///
/// By default it comes from the user's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`) when that names a
/// language, and is `en-US` otherwise: the `C` and `POSIX` locales of servers and containers name
/// none, and WebKit would pass their name on as `"C"`. `--lang` chooses another.
///
/// ```swift
/// BrowserLanguage("de_DE.UTF-8")?.tag                        // "de-DE"
/// BrowserLanguage.fromEnvironment(["LANG": "C.UTF-8"]).tag   // "en-US"
/// ```
public struct BrowserLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The BCP 47 tag: `en-US`, `de`, `zh-Hant-TW`.
    public let tag: String

    /// `en-US`, for a locale that names no language.
    public static let fallback = BrowserLanguage(uncheckedTag: "en-US")

    private init(uncheckedTag: String) {
        tag = uncheckedTag
    }

    /// Reads a language tag (`de-DE`, `pt-BR`, `zh-Hant-TW`) or a POSIX locale name
    /// (`de_DE.UTF-8`, `sr_RS@latin`); `nil` for `C`, `POSIX` and anything that is not a language.
    public init?(_ text: String) {
        let name = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let base = name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        let parts = base.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isASCIILetter),
              !["c", "posix"].contains(language.lowercased()) else { return nil }
        var subtags = [language.lowercased()]
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(\.isASCIILetter) {
            subtags.append(script.prefix(1).uppercased() + script.dropFirst().lowercased())
            rest = rest.dropFirst()
        }
        if let region = rest.first, (region.count == 2 && region.allSatisfy(\.isASCIILetter)) || (region.count == 3 && region.allSatisfy(\.isASCIIDigit)) {
            subtags.append(region.uppercased())
            rest = rest.dropFirst()
        }
        guard rest.isEmpty else { return nil }
        tag = subtags.joined(separator: "-")
    }

    /// The language of the locale `environment` names (`LC_ALL`, else `LC_MESSAGES`, else `LANG`,
    /// as the C library reads them), or ``fallback`` when that names none.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> BrowserLanguage {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return locale.flatMap(BrowserLanguage.init) ?? fallback
    }

    /// The POSIX locale name WebKit reads it from: `de_DE.UTF-8`.
    public var posixLocale: String {
        let parts = tag.split(separator: "-")
        let region = parts.dropFirst().first { $0.count != 4 }
        return String(parts[0]) + (region.map { "_" + $0 } ?? "") + ".UTF-8"
    }

    /// Chromium's `Accept-Language` list: the tag, then its language alone (`de-DE,de`).
    public var acceptLanguages: String {
        let language = tag.split(separator: "-").first.map(String.init) ?? tag
        return language == tag ? tag : "\(tag),\(language)"
    }

    public var description: String { tag }
}

private extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}
