/// What ends a command without success when no library error says it: ``ExitStatus`` gives
/// each case its exit code, and `PageScript.main` prints its message.
enum CommandFailure: Error, CustomStringConvertible {
    /// The command line or the user's input is wrong; the message says what.
    case badInput(String)
    /// The browser went away while the editor was open; the message says how.
    case browserStopped(String)
    /// A script threw or did not parse, or a file was refused; the output already says which.
    case scriptsFailed
    /// A library script did not finish in time; the output already says which.
    case scriptsTimedOut
    /// A termination signal ended the command.
    case signal(Int32)

    /// The message to print; empty when the output already told the user.
    var description: String {
        switch self {
        case let .badInput(message), let .browserStopped(message): message
        case .scriptsFailed, .scriptsTimedOut, .signal: ""
        }
    }
}
