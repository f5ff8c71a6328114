import Foundation
import SystemSupport

/// The part every ``BatchThroughputPeer`` written in Python shares: write its script, hand it the
/// pages in a file, run it once and turn its answer into a ``BatchThroughputRun``.
///
/// The script is called as `script.py URL-LIST CONFIGURATION-JSON OUTPUT` and writes
/// `{"seconds": S, "pages": P, "values": V}` to `OUTPUT`: `S` from the first page's start to the
/// last page's end, `P` the pages it read a value from, `V` those values as one JSON text of an
/// object by URL (read with `JSONValue`, as PageScript's records are, so that both sides' values
/// compare alike). A run that read fewer pages than it was given fails.
///
/// ```swift
/// let run = try BatchPeerScript.run(
///     source: source, path: folder + "/peer.py", python: python, label: "Playwright batch, 4 pages at once",
///     urls: urls, configuration: configuration, environment: nil)
/// run.secondsPerPage
/// ```
enum BatchPeerScript {
    /// What the script writes to its output file.
    private struct Reply: Decodable {
        var seconds: Double
        var pages: Int
        var values: String
    }

    /// Writes `source` to `path`, runs it over `urls` with `configuration` and returns its time
    /// per page and its values.
    ///
    /// - Parameters:
    ///   - source: The Python script.
    ///   - path: Where it is written (the bench's virtual environment folder).
    ///   - python: The interpreter that has the peer installed.
    ///   - label: How errors name the run.
    ///   - urls: The pages, written one a line to a scratch file removed afterwards.
    ///   - configuration: The rest of what the script is told, as JSON.
    ///   - environment: The script's whole environment; `nil` inherits this process's.
    /// - Throws: ``BenchmarkError`` when the files cannot be written, the script fails or times
    ///   out, or it answers for fewer pages than `urls`.
    static func run<Configuration: Encodable>(
        source: String, path: String, python: String, label: String, urls: [String], configuration: Configuration,
        environment: [String: String]?
    ) throws(BenchmarkError) -> BatchThroughputRun {
        let script = try PythonScript.write(source, to: path, python: python, label: label)
        let listPath = NSTemporaryDirectory() + "pagescript-batch-peer-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        defer { unlink(listPath) }
        do {
            try Data(urls.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: listPath))
        } catch {
            throw .fixture(reason: "the page list of \(label): \(error)")
        }
        let (run, reply) = try script.run(
            Reply.self, arguments: [listPath], configuration: configuration, environment: environment, timeout: 1800)
        guard reply.pages == urls.count, reply.pages > 0 else {
            throw .processFailed(command: label, status: "read \(reply.pages) of \(urls.count) pages", output: run.output)
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: reply.values)
        } catch {
            throw .processFailed(command: label, status: "unreadable values: \(error)", output: run.output)
        }
        guard case let .object(members) = parsed else {
            throw .processFailed(command: label, status: "values that are not an object by URL", output: run.output)
        }
        let values = Dictionary(members, uniquingKeysWith: { first, _ in first })
        return BatchThroughputRun(secondsPerPage: reply.seconds / Double(reply.pages), values: values)
    }
}
