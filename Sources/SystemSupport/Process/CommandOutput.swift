import Foundation

/// Runs a short-lived program and collects what it prints, for version probes and the like.
public enum CommandOutput {
    /// Runs `executable` with `arguments` and returns its standard output and error, trimmed.
    ///
    /// The program is stopped if it runs longer than `timeout` seconds; `nil` when it could not
    /// be started or did not finish in time.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 5) -> String? {
        let logPath = NSTemporaryDirectory() + "pagescript-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(logPath) }
        guard let child = try? ChildProcess.launch(executable: executable, arguments: arguments, outputPath: logPath) else {
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
