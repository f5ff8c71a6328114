/// Why a URL could not be read for matching.
///
/// A URL that cannot be read is never matched: when in doubt, no script runs.
public enum URLParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text does not start with a scheme followed by `:`.
    case missingScheme
    /// The scheme is not one PageScript runs scripts on (anything but http, https and file).
    case unsupportedScheme(String)
    /// The host is missing, malformed, or not something PageScript can put in canonical form.
    case invalidHost(String, reason: String)
    /// The port is not a number from 0 to 65535.
    case invalidPort(String)

    /// What is wrong, as a sentence fragment for the terminal.
    public var description: String {
        switch self {
        case .missingScheme:
            "the URL has no scheme (it should start with http://, https:// or file://)"
        case .unsupportedScheme(let scheme):
            "scripts do not run on `\(scheme):` URLs, only on http, https and file URLs"
        case .invalidHost(let host, let reason):
            "the host `\(host)` is not valid: \(reason)"
        case .invalidPort(let port):
            "the port `\(port)` is not a number from 0 to 65535"
        }
    }
}
