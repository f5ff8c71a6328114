import SystemSupport

/// Why the terminal layer could not do what was asked.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file descriptor is not a terminal (input redirected from a file or a pipe).
    case notATerminal(fileDescriptor: Int32)
    /// Raw mode is already on through another ``RawMode`` that has not been restored.
    case rawModeAlreadyActive
    /// A system call failed with this `errno`.
    case systemCall(name: String, errno: Int32)

    /// A sentence for the user, with the system's wording of the error code.
    public var description: String {
        switch self {
        case .notATerminal(let fileDescriptor):
            return "file descriptor \(fileDescriptor) is not a terminal"
        case .rawModeAlreadyActive:
            return "the terminal is already in raw mode"
        case .systemCall(let name, let code):
            return "\(name) failed: \(errnoDescription(code))"
        }
    }
}
