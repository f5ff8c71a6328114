import Dispatch
import Foundation
import SystemSupport

/// Reads the terminal on a thread of its own and delivers decoded input, resizes and signals.
///
/// Blocking in `poll(2)` on a dedicated thread keeps the Swift concurrency pool free. The
/// thread polls the terminal and the ``SignalPipe`` together, owns the ``KeyDecoder``, and
/// applies the Esc timeout: while the decoder holds an ambiguous Esc, `poll` waits only the
/// escape delay, and on timeout the decoder is flushed.
final class TerminalInputReader: Sendable {
    enum Output: Sendable {
        case input([InputEvent])
        case resize
        case signal(Int32)
        /// The terminal hung up or reading failed; nothing more will come.
        case closed
    }

    private let input: Int32
    private let pipe: SignalPipe
    private let escapeDelayMilliseconds: Int32
    private let finished = DispatchGroup()

    init(input: Int32, pipe: SignalPipe, escapeDelay: Duration) {
        self.input = input
        self.pipe = pipe
        let milliseconds = escapeDelay.components.seconds * 1000 + escapeDelay.components.attoseconds / 1_000_000_000_000_000
        escapeDelayMilliseconds = Int32(clamping: max(1, milliseconds))
    }

    /// Starts the thread; `deliver` is called on it for everything read.
    func start(deliver: @escaping @Sendable (Output) -> Void) {
        finished.enter()
        let thread = Thread { [self] in
            readLoop(deliver: deliver)
            finished.leave()
        }
        thread.name = "PageScript terminal input"
        thread.start()
    }

    /// Asks the thread to stop and waits until it has.
    func stop() async {
        pipe.wake(code: SignalPipe.stopCode)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            finished.notify(queue: .global()) {
                continuation.resume()
            }
        }
    }

    private func readLoop(deliver: @Sendable (Output) -> Void) {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let timeout: Int32 = decoder.hasPendingEscape ? escapeDelayMilliseconds : -1
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if currentErrno == EINTR { continue }
                deliver(.closed)
                return
            }
            if ready == 0 {
                let events = decoder.flush()
                if !events.isEmpty { deliver(.input(events)) }
                continue
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                for code in pipe.drain() {
                    if code == SignalPipe.stopCode { return }
                    if Int32(code) == SIGWINCH {
                        deliver(.resize)
                    } else {
                        deliver(.signal(Int32(code)))
                    }
                }
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = read(input, &buffer, buffer.count)
                if count > 0 {
                    let events = decoder.feed(buffer[0..<count])
                    if !events.isEmpty { deliver(.input(events)) }
                } else if count == 0 || (currentErrno != EINTR && currentErrno != EAGAIN) {
                    deliver(.closed)
                    return
                }
            }
        }
    }
}
