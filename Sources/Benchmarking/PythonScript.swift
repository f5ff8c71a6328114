import Foundation

/// A Python script of the bench's (the protocol floor, a peer) run once in its own process: told
/// what to do in one JSON argument, answering in a JSON file.
///
/// ```swift
/// let script = PythonScript(python: "/usr/bin/python3", path: "/tmp/floor.py", label: "the protocol floor")
/// let (run, reply) = try script.run(Reply.self, configuration: configuration, environment: nil, timeout: 120)
/// ```
struct PythonScript: Sendable {
    /// The interpreter.
    let python: String
    /// The script file.
    let path: String
    /// How to name the script in errors.
    let label: String

    /// Writes `source` to `path` and returns the script.
    static func write(_ source: String, to path: String, python: String, label: String) throws(BenchmarkError) -> PythonScript {
        do {
            try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .fixture(reason: "cannot write \(path): \(error)")
        }
        return PythonScript(python: python, path: path, label: label)
    }

    /// Runs the script with `arguments` followed by `configuration` as JSON, plus the path of
    /// the file it answers in (the configuration's `output`, set here), and decodes the answer.
    ///
    /// - Throws: ``BenchmarkError`` when the script fails, times out or answers nothing readable.
    func run<Configuration: Encodable, Reply: Decodable>(
        _ reply: Reply.Type, arguments: [String] = [], configuration: Configuration, environment: [String: String]?, timeout: Double
    ) throws(BenchmarkError) -> (run: MeasuredProcess, reply: Reply) {
        let outputPath = NSTemporaryDirectory() + "pagescript-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        defer { unlink(outputPath) }
        let argument: String
        do {
            argument = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        } catch {
            throw .fixture(reason: "the configuration of \(label): \(error)")
        }
        let run = try MeasuredProcess.run(
            executable: python, arguments: [path] + arguments + [argument, outputPath], environment: environment,
            timeout: timeout, label: label)
        guard let data = FileManager.default.contents(atPath: outputPath) else {
            throw .processFailed(command: label, status: "no reply", output: run.output)
        }
        do {
            return (run, try JSONDecoder().decode(Reply.self, from: data))
        } catch {
            throw .processFailed(command: label, status: "unreadable reply: \(error)", output: run.output)
        }
    }
}
