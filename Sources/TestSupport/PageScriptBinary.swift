import Foundation

/// Runs the built `pagescript` executable, for end-to-end tests.
public enum PageScriptBinary {
    /// What one run printed and how it ended.
    public struct Outcome: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public let seconds: Double
    }

    /// The path of the `pagescript` executable next to the test bundle.
    public static var path: String {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("pagescript").path,
            URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent().appendingPathComponent("pagescript").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Runs `pagescript` with `arguments`, an optional standard input and extra environment.
    public static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = inputPipe
        let started = Date()
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            seconds: Date().timeIntervalSince(started))
    }

    /// Runs `pagescript` as ``run(_:input:environment:)`` does, on a thread of its own.
    ///
    /// Swift's concurrency runs every async test on a pool with one thread per core (two here);
    /// a test blocked for minutes on a browser inside one of them stalls every other async test
    /// in the process, long enough for their own timeouts to fire. Tests that wait on the
    /// executable use this instead.
    ///
    /// ```swift
    /// let outcome = try await PageScriptBinary.outcome(of: ["run", url, "-e", "1"])
    /// ```
    public static func outcome(of arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(arguments, input: input, environment: environment) })
            }.start()
        }
    }
}
