/// Why one `@require` or `@resource` file could not be fetched, or was refused.
///
/// The script is still imported or kept; it is not runnable until a later `scripts update`
/// fetches the file (``DependencyCache/missing(for:id:)`` lists it with this reason).
public enum DependencyFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL cannot be read, is relative with no base, or is not http or https.
    case invalidURL(String, reason: String)
    /// An integrity hash in the fragment is malformed.
    case malformedHash(String, reason: String)
    /// The server answered with a status other than 2xx.
    case httpStatus(url: String, status: Int, reason: String)
    /// The file is larger than the fetcher's limit.
    case tooLarge(url: String, limit: Int)
    /// No complete answer within the timeout.
    case timedOut(url: String, seconds: Double)
    /// The connection failed (refused, DNS, TLS, reset).
    case network(url: String, reason: String)
    /// A redirect PageScript does not follow: to a URL it cannot read, out of http(s), from
    /// https to http, or too many.
    case redirectRefused(url: String, location: String, reason: String)
    /// The file does not match an integrity hash of the URL: refused.
    case integrityMismatch(url: String, hash: String, actual: String)

    /// What went wrong, as a sentence for the terminal.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "\(url) cannot be fetched: \(reason)"
        case .malformedHash(let hash, let reason):
            "the integrity hash `\(hash)` is malformed: \(reason)"
        case .httpStatus(let url, let status, let reason):
            "\(url) answered HTTP \(status)\(reason.isEmpty ? "" : " \(reason)")"
        case .tooLarge(let url, let limit):
            "\(url) is larger than PageScript's limit of \(ReadableAmount.bytes(limit)) for @require and @resource files"
        case .timedOut(let url, let seconds):
            "\(url) did not answer within \(ReadableAmount.seconds(seconds))"
        case .network(let url, let reason):
            "\(url) could not be reached: \(reason)"
        case .redirectRefused(let url, let location, let reason):
            "\(url) redirected to \(location), which PageScript does not follow: \(reason)"
        case .integrityMismatch(let url, let hash, let actual):
            "\(url) does not match its integrity hash \(hash) (the file has \(actual)); it was refused"
        }
    }
}
