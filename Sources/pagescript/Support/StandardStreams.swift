import Foundation
import SystemSupport

/// Writes a line to standard error. Page-provided text must be escaped by the caller.
func printError(_ line: String) {
    StandardStream.error.write(line + "\n")
}

/// Writes a line to standard output.
func printOutput(_ line: String) {
    StandardStream.output.write(line + "\n")
}

/// Standard output and standard error, written with `write(2)` so that a reader that went
/// away (`pagescript run ... | head -c 20`) ends the command quietly, as it ends other tools,
/// instead of trapping in `FileHandle.write`.
enum StandardStream {
    case output
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Makes a closed reader an `EPIPE` from `write` rather than a SIGPIPE that would kill the
    /// process before it stops the browser it started. Called once at start.
    static func reportClosedReadersAsErrors() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `text`. When the reader has gone away, stops everything PageScript
    /// started, as a termination signal does, and exits with 141 (128 + SIGPIPE), the status a
    /// shell shows for any program whose reader went away.
    func write(_ text: String) {
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
            } else if errno == EPIPE {
                ChildProcessRegistry.shared.stopAll(grace: 0.3)
                OrphanReaper.stopAllDescendants()
                exit(128 + SIGPIPE)
            } else {
                // Nowhere is left to report a failing standard stream to.
                return
            }
        }
    }
}
