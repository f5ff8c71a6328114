import Foundation
import SystemSupport

/// A program run to completion: how long it took from launch to exit, and the most memory it
/// held itself.
///
/// Peak memory is the process's own high-water mark (`VmHWM` in `/proc/<pid>/status`), read
/// every millisecond while it runs; the mark only grows, so the last reading before the process
/// ends is its peak (the teardown that follows the run's work allocates nothing of note). The
/// `ru_maxrss` that `wait4` reports is not used: it is the largest of the process and every
/// descendant it reaped, and a `pagescript run` or a Selenium script reaps its driver and
/// browser, so it would report the browser.
///
/// The program gets a temporary folder of its own (its `TMPDIR`), removed once it has exited:
/// what a peer's driver and browser put there (chromedriver's `scoped_dir` profiles, Chromium's
/// `org.chromium.Chromium.*` folders), and a killed browser leaves behind, goes with it instead of
/// collecting in the system's.
///
/// ```swift
/// let run = try MeasuredProcess.run(executable: "/usr/bin/true", arguments: [], timeout: 5)
/// run.elapsed             // seconds
/// run.peakResidentBytes   // bytes, on Linux
/// ```
public struct MeasuredProcess: Sendable {
    /// Seconds from just before launch to the moment the exit was seen (within a millisecond).
    public let elapsed: Double
    /// The process's own peak resident memory, in bytes; `nil` where `/proc` is missing.
    public let peakResidentBytes: Double?
    /// The exit code; `nil` when the process was ended by a signal.
    public let exitCode: Int32?
    /// What the process wrote to standard output and error.
    public let output: String

    /// Runs `executable` and waits for it to end.
    ///
    /// - Parameters:
    ///   - executable: An absolute path.
    ///   - arguments: The arguments, not including the program name.
    ///   - environment: The child's whole environment; `nil` inherits this process's. Its
    ///     `TMPDIR` is replaced by the run's own temporary folder either way.
    ///   - timeout: Seconds after which the process and its group are stopped.
    ///   - label: How to name the program in errors.
    /// - Throws: ``BenchmarkError/processTimedOut(command:seconds:)`` after `timeout`, and
    ///   ``BenchmarkError/processFailed(command:status:output:)`` when it cannot start or does not
    ///   exit with 0.
    public static func run(
        executable: String, arguments: [String], environment: [String: String]? = nil, timeout: Double, label: String
    ) throws(BenchmarkError) -> MeasuredProcess {
        let scratch = NSTemporaryDirectory() + "pagescript-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let logPath = scratch + ".log", temporaryFolder = scratch + ".tmp"
        defer { unlink(logPath) }
        do {
            try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: false)
        } catch {
            throw .fixture(reason: "cannot make the temporary folder of \(label) at \(temporaryFolder): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: temporaryFolder) }
        var childEnvironment = environment ?? ProcessInfo.processInfo.environment
        childEnvironment["TMPDIR"] = temporaryFolder
        let start = DispatchTime.now().uptimeNanoseconds
        let child: ChildProcess
        do {
            child = try ChildProcess.launch(executable: executable, arguments: arguments, environment: childEnvironment, outputPath: logPath)
        } catch {
            throw .processFailed(command: label, status: "did not start", output: error.description)
        }
        let deadline = start + UInt64(timeout * 1e9)
        var peak: Double?
        var status: Int32?
        while status == nil {
            if let mark = highWaterMark(of: child.processID) { peak = max(peak ?? 0, mark) }
            status = child.pollExit()
            if status == nil {
                if DispatchTime.now().uptimeNanoseconds > deadline {
                    child.stop(grace: 1)
                    throw .processTimedOut(command: label, seconds: timeout)
                }
                usleep(1_000)
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let rawStatus = status ?? 0
        let exitCode: Int32? = rawStatus & 0x7f == 0 ? (rawStatus >> 8) & 0xff : nil
        guard exitCode == 0 else {
            let tail = output.split(separator: "\n").suffix(4).joined(separator: " | ")
            let described = exitCode.map { "exit \($0)" } ?? "signal \(rawStatus & 0x7f)"
            throw .processFailed(command: label, status: described, output: tail)
        }
        return MeasuredProcess(elapsed: elapsed, peakResidentBytes: peak, exitCode: exitCode, output: output)
    }

    /// `VmHWM` of a running process, in bytes; `nil` once it has exited or without `/proc`.
    static func highWaterMark(of processID: pid_t) -> Double? {
        let descriptor = open("/proc/\(processID)/status", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return highWaterMark(inStatus: String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// Reads `VmHWM:   1234 kB` out of a `/proc/<pid>/status` text, in bytes.
    static func highWaterMark(inStatus text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, let kilobytes = Double(fields[1]), fields[2] == "kB" else { return nil }
        return kilobytes * 1024
    }
}
