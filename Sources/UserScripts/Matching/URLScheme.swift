/// The URL schemes PageScript runs scripts on.
///
/// Every other scheme (`ftp:`, `data:`, `about:`, `javascript:`, browser-internal pages) is outside
/// PageScript's reach, so a URL with one of them never matches any script.
public enum URLScheme: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case http
    case https
    case file

    /// The port a URL with this scheme uses when it names none; `nil` for `file`, which has no ports.
    public var defaultPort: Int? {
        switch self {
        case .http: 80
        case .https: 443
        case .file: nil
        }
    }

    /// `http`, `https` or `file`.
    public var description: String { rawValue }
}
