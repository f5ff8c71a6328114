import Foundation

/// Standard input, output or error; the last two written with `write(2)`, so that a reader that went away
/// (`pagescript run ... | head -c 20`) is an answer the caller handles, never a trap in
/// `FileHandle.write` or a SIGPIPE that kills the process before it stops the browser it started
/// (``CommandSupervision/reportClosedReadersAsErrors()`` makes it one).
///
/// ```swift
/// if !StandardStream.output.write("\"Hello\"\n") {
///     CommandSupervision.stopEverything()   // the reader went away
/// }
/// ```
public enum StandardStream: Sendable, Equatable {
    case input
    case output
    case error

    /// The stream's file descriptor.
    public var descriptor: Int32 {
        switch self {
        case .input: STDIN_FILENO
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Whether the stream is a terminal (a person reads it, rather than a program or a file).
    public var isTerminal: Bool {
        isatty(descriptor) == 1
    }

    /// Writes all of `text`.
    ///
    /// - Returns: `false` when the reader has gone away (`EPIPE`); `true` otherwise, including a
    ///   stream that fails for another reason, which leaves nowhere to report it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
            } else if errno == EINTR {
                continue
            } else {
                return errno != EPIPE
            }
        }
        return true
    }
}

/// A line of a command's output and the stream it belongs on: a value (standard output) or what
/// a person reads about it (standard error). Renderers return these; the executable writes them.
public struct StreamLine: Sendable, Equatable, CustomStringConvertible {
    public var stream: StandardStream
    public var text: String

    public init(_ stream: StandardStream, _ text: String) {
        self.stream = stream
        self.text = text
    }

    /// A line for standard output.
    public static func output(_ text: String) -> StreamLine {
        StreamLine(.output, text)
    }

    /// A line for standard error.
    public static func error(_ text: String) -> StreamLine {
        StreamLine(.error, text)
    }

    public var description: String {
        "\(stream == .output ? "out" : "err"): \(text)"
    }
}
