import SystemSupport

/// The terminal the editor runs on: where it reads keys and where it draws.
///
/// Usually both are the controlling terminal (standard input and output). Both must refer to
/// a terminal; the editor never closes them.
public struct TerminalDevice: Hashable, Sendable {
    /// The descriptor keys are read from; raw mode is set on it.
    public var input: Int32
    /// The descriptor frames are written to.
    public var output: Int32

    /// Creates a device from two open descriptors (they may be the same).
    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Standard input and standard output.
    public static let standard = TerminalDevice(input: STDIN_FILENO, output: STDOUT_FILENO)
}
