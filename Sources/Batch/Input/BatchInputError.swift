/// Why a batch's URL list could not be read.
public enum BatchInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The list could not be opened or read.
    case unreadable(name: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(name, reason): "cannot read the URL list \(name): \(reason)"
        }
    }
}
