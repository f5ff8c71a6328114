/// What stops a batch before every entry is recorded, apart from sessions and signals.
public enum BatchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL list could not be read.
    case input(BatchInputError)
    /// With `--resume`: the input has different text under an index the output already records,
    /// so it is not the list the output was made from.
    case inputChanged(line: Int, index: Int)
    /// A record could not be written.
    case output(ResultLogError)
    /// PageScript cannot run pages at all (its own resources are missing).
    case pageScript(String)

    public var description: String {
        switch self {
        case let .input(error):
            error.description
        case let .inputChanged(line, index):
            "line \(line) of the URL list is not the URL the output records as entry \(index): the list changed since the output was written; resume with the same list, or start a new output file"
        case let .output(error):
            error.description
        case let .pageScript(reason):
            reason
        }
    }
}
