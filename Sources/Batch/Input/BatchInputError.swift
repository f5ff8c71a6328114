/// Why a batch's input could not be read.
public enum BatchInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The list could not be opened or read.
    case unreadable(name: String, reason: String)
    /// A table's first line does not name its columns as a batch needs (one `url`, no name
    /// twice).
    case badHeader(name: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(name, reason): "cannot read the URL list \(name): \(reason)"
        case let .badHeader(name, reason): "\(name) is not a table of pages: \(reason)"
        }
    }
}
