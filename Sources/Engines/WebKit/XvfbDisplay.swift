import Foundation
import SystemSupport

/// A private X display (Xvfb) for engines that cannot run headless, such as WebKitGTK 2.50.
///
/// Xvfb picks a free display number itself (`-displayfd`) and reports it once it accepts
/// connections, so there is no race with other X servers and no polling.
public final class XvfbDisplay: Sendable {
    /// The display name, for `DISPLAY` (e.g. `:3`).
    public let name: String
    /// The X server process.
    public let process: ChildProcess

    private init(name: String, process: ChildProcess) {
        self.name = name
        self.process = process
    }

    /// Starts Xvfb and waits until it is ready.
    public static func start(executable: String, timeout: Double = 10) throws(EngineError) -> XvfbDisplay {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw .failedToStart(engine: .webkit, reason: "pipe: \(errnoDescription(errno))")
        }
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let process: ChildProcess
        do {
            process = try ChildProcess.launch(
                executable: executable,
                arguments: ["-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1280x1024x24", "-nolock"],
                inheritedDescriptors: [(writeEnd, 3)])
        } catch {
            close(writeEnd)
            throw .failedToStart(engine: .webkit, reason: error.description)
        }
        close(writeEnd)

        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while !text.contains("\n") {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                process.stop()
                throw .failedToStart(engine: .webkit, reason: "Xvfb did not report a display within \(Int(timeout)) s")
            }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(readEnd, &buffer, buffer.count)
            if count <= 0 {
                let status = process.pollExit()
                process.stop()
                throw .failedToStart(engine: .webkit, reason: "Xvfb exited before reporting a display (status \(status ?? -1))")
            }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else {
            process.stop()
            throw .failedToStart(engine: .webkit, reason: "Xvfb reported an unexpected display '\(number)'")
        }
        return XvfbDisplay(name: ":\(number)", process: process)
    }

    /// Stops the X server.
    public func stop() {
        process.stop()
    }
}
