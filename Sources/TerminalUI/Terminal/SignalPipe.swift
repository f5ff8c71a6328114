import SystemSupport

/// A self-pipe: signal handlers write one byte (the signal number) and return, and the input
/// thread, which polls the read end beside the terminal, does the real work outside the
/// handler. Ordinary code writes to it too, to wake that thread up.
final class SignalPipe: Sendable {
    /// The byte that asks the input thread to stop.
    static let stopCode: UInt8 = 0

    let readEnd: Int32
    let writeEnd: Int32

    init() throws(TerminalError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall(name: "pipe", errno: currentErrno) }
        readEnd = ends[0]
        writeEnd = ends[1]
        // Non-blocking: a handler must never block on a full pipe, and draining must stop
        // when it is empty. Close-on-exec: a browser started meanwhile must not inherit it.
        for descriptor in ends {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Writes one byte for the reading side.
    func wake(code: UInt8) {
        var byte = code
        _ = write(writeEnd, &byte, 1)
    }

    /// Reads every byte waiting in the pipe.
    func drain() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }
}
