import Foundation

/// Runs a short-lived program and collects what it prints, for version probes and the like.
public enum CommandOutput {
    /// Runs `executable` with `arguments` and returns what it printed, trimmed.
    ///
    /// The program is stopped if it runs longer than `timeout` seconds; `nil` when it could not
    /// be started or did not finish in time.
    ///
    /// - Parameters:
    ///   - executable: The program's absolute path.
    ///   - arguments: Its arguments.
    ///   - timeout: The most seconds it may run.
    ///   - includingStandardError: Whether standard error is collected too; without it, a
    ///     program's complaints (a launcher script's shell errors) stay out of the answer.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 5,
                           includingStandardError: Bool = true) -> String? {
        let logPath = NSTemporaryDirectory() + "pagescript-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(logPath) }
        var silenced: [(Int32, Int32)] = []
        if !includingStandardError {
            let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard devNull >= 0 else { return nil }
            silenced = [(devNull, STDERR_FILENO)]
        }
        defer { silenced.forEach { close($0.0) } }
        guard let child = try? ChildProcess.launch(executable: executable, arguments: arguments, outputPath: logPath,
                                                   inheritedDescriptors: silenced) else {
            return nil
        }
        let deadline = Date().addingTimeInterval(timeout)
        while child.pollExit() == nil {
            if Date() > deadline {
                child.stop(grace: 0.2)
                return nil
            }
            usleep(5_000)
        }
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
