import Batch
import Engines
import Foundation
import SystemSupport

/// The batch rows of the table: `pagescript batch` throughput over 200 loopback pages.
///
/// Every row compares seconds per page (the inverse of pages per second, so that lower is better
/// like every other row): from the first page's start to the last page's end, over the pages, so
/// that the browsers' start is counted on neither side.
///
/// - `--jobs 1` against the protocol floor: one session, and for each page a bare navigation and
///   one Execute Script (`return document.title`), nothing else (aim 1.2x).
/// - `--jobs` 1, 2 and 4 against each peer running the same pages with as many at once:
///   Selenium for Python with a thread pool (aim: 1.5 times its throughput), Playwright for
///   Python with as many pages at once on Chromium (aim: its throughput; on Firefox, with the
///   peers, rows that say why it cannot be measured: ``PlaywrightPeer/firefoxUnavailable``), and
///   any other ``BatchThroughputPeer``.
///
/// PageScript runs in this process through ``BatchRunner``, exactly as `pagescript batch
/// -e document.title --jobs N` does, writing its records to a scratch file.
public enum BatchBenchmark {
    /// The number of pages of each run.
    public static let pageCount = 200
    /// The `--jobs` values measured.
    public static let jobCounts = [1, 2, 4]
    /// What every page is asked, by PageScript and by each peer.
    public static let expression = "document.title"

    /// A loopback site of ``pageCount`` small pages, each its own URL.
    public static func startSite() throws -> (site: LoopbackServer, urls: [String]) {
        let site = try LoopbackServer { request in
            .page("<!doctype html><html><head><title>Bench \(request.target)</title></head><body><p>A page of the batch bench.</p></body></html>")
        }
        return (site, (0..<pageCount).map { site.url("/page/\($0)") })
    }

    /// The batch rows for `engine`.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - urls: The pages (see ``startSite()``).
    ///   - peers: The other tools to compare with.
    ///   - repetitions: Runs of each measurement.
    public static func rows(engine: Engine, urls: [String], peers: [any BatchThroughputPeer], repetitions: Int) async throws -> [ComparisonRow] {
        var floor: [Double] = []
        for _ in 0..<repetitions { floor.append(try await Self.floor(engine: engine, urls: urls).secondsPerPage) }
        var ours: [Int: Measurement] = [:]
        for jobs in jobCounts {
            var samples: [Double] = []
            for _ in 0..<repetitions { samples.append(try await run(expression, engine: engine, urls: urls, jobs: jobs).secondsPerPage) }
            ours[jobs] = Measurement(name: "pagescript batch --jobs \(jobs)", samples: samples)
        }
        var rows = [ComparisonRow(
            title: "\(engine): batch --jobs 1, per page of \(pageCount) vs bare navigate + Execute Script",
            subject: ours[1]!, baseline: Measurement(name: "navigate + Execute Script", samples: floor), aim: 1.2)]
        let display = try engine == .webkit ? ExecutableLocator.find("Xvfb").map { try XvfbDisplay.start(executable: $0) } : nil
        defer { display?.stop() }
        for peer in peers where peer.supports(engine) {
            for jobs in jobCounts {
                var samples: [Double] = []
                for _ in 0..<repetitions {
                    samples.append(try peer.run(expression, engine: engine, urls: urls, jobs: jobs, display: display?.name).secondsPerPage)
                }
                rows.append(ComparisonRow(
                    title: "\(engine): batch --jobs \(jobs), per page of \(pageCount) vs \(peer.name(jobs: jobs))",
                    subject: ours[jobs]!, baseline: Measurement(name: peer.name(jobs: jobs), samples: samples), aim: peer.aim))
            }
        }
        if engine == .firefox, !peers.isEmpty {
            rows += jobCounts.map { jobs in
                ComparisonRow(title: "\(engine): batch --jobs \(jobs), per page of \(pageCount) vs Playwright (Python), \(jobs) \(jobs == 1 ? "page" : "pages") at once",
                              subject: ours[jobs]!, baseline: nil, aim: 1, note: PlaywrightPeer.firefoxUnavailable)
            }
        }
        return rows
    }

    /// Where `pagescript batch` takes its sessions on a local `engine` (Safari, which `pagescript
    /// bench` refuses, has no batch of its own).
    static func source(for engine: Engine) -> any SessionSource {
        switch engine {
        case .chromium: LocalChromiumSource()
        case .firefox: LocalFirefoxSource()
        case .webkit, .safari: LocalWebKitSource()
        }
    }

    /// One batch over `urls` with `jobs` sessions, in this process, exactly as `pagescript batch
    /// -e EXPRESSION --jobs N` runs it (the pages' Content-Security-Policy left in force).
    ///
    /// - Parameters:
    ///   - expression: The script, evaluated on every page.
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - urls: The pages, each different.
    ///   - jobs: Sessions at once.
    /// - Returns: The seconds per page, from the earliest record's start to the latest record's
    ///   end, and each page's value, by its URL.
    /// - Throws: ``BenchmarkError`` when the batch did not complete or a page's record is not
    ///   `ok`.
    public static func run(_ expression: String, engine: Engine, urls: [String], jobs: Int) async throws -> BatchThroughputRun {
        let folder = NSTemporaryDirectory() + "pagescript-bench-batch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(urls.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: folder + "/urls.txt"))
        let plan = try BatchPlan.prepare(inputPath: folder + "/urls.txt", outputPath: folder + "/out.jsonl", resume: false)
        var configuration = BatchConfiguration()
        configuration.jobs = jobs
        let source = Self.source(for: engine)
        let summary = await BatchRunner(configuration: configuration, source: source, script: .code(expression), plan: plan).run { _ in }
        guard summary.ending == .completed, summary.progress.statusCounts[.ok] == urls.count else {
            let failures = (try? Records(at: folder + "/out.jsonl"))?.failures.prefix(3) ?? []
            throw BenchmarkError.processFailed(
                command: "pagescript batch --jobs \(jobs) on \(engine)", status: "\(summary.ending)",
                output: ([summary.line] + failures).joined(separator: "; "))
        }
        let records = try Records(at: folder + "/out.jsonl")
        return BatchThroughputRun(secondsPerPage: records.window / Double(urls.count), values: records.values)
    }

    /// What a batch's records say: the seconds from the earliest record's start to the latest
    /// record's end, each record's value by its input, and the records that are not `ok`.
    struct Records {
        var window: Double
        var values: [String: JSONValue]
        /// Each record that is not `ok`, as `input: status (error message)`, in the file's order.
        var failures: [String]

        init(at path: String) throws {
            var first = Double.infinity
            var last = -Double.infinity
            values = [:]
            failures = []
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                let record = try JSONValue(parsing: String(line))
                guard let stamp = record["startedAt"]?.stringValue, let start = BatchBenchmark.parseTimestamp(stamp),
                      let duration = record["durationMs"]?.intValue, let input = record["input"]?.stringValue else {
                    throw BenchmarkError.fixture(reason: "a batch record without its input or times: \(line.prefix(120))")
                }
                first = min(first, start)
                last = max(last, start + Double(duration) / 1000)
                values[input] = record["value"] ?? .null
                if let status = record["status"]?.stringValue, status != "ok" {
                    failures.append("\(input): \(status) (\(record["error"]?["message"]?.stringValue ?? "no message"))")
                }
            }
            window = last - first
        }
    }

    /// `2025-06-01T12:00:00.123Z` as seconds since 1970.
    static func parseTimestamp(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 7 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(parts[0] - 1900)
        fields.tm_mon = Int32(parts[1] - 1)
        fields.tm_mday = Int32(parts[2])
        fields.tm_hour = Int32(parts[3])
        fields.tm_min = Int32(parts[4])
        fields.tm_sec = Int32(parts[5])
        return Double(timegm(&fields)) + Double(parts[6]) / 1000
    }

    /// The floor: one session, a bare navigation and one Execute Script per page, in order;
    /// seconds per page, timed from the first page (the browser's start is not part of it), and
    /// each page's value. The session comes from the same source `batch` takes its sessions from,
    /// so the browser is started the same way (on WebKit: PageScript's MiniBrowser behind its
    /// relay, without accelerated compositing) and the row compares only what happens per page.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - urls: The pages, in order.
    ///   - expression: What the floor's Execute Script returns on each page (its body is `return `
    ///     and the expression, as Selenium's is).
    static func floor(engine: Engine, urls: [String], expression: String = Self.expression) async throws -> BatchThroughputRun {
        let source = Self.source(for: engine)
        let body = JSONValue.string("return " + expression).serialized
        do {
            try await source.prepare()
            let opened = try await source.openSession(slot: 0, scriptTimeout: 30, pageLoadTimeout: 30)
            let session = opened.session
            var values: [String: JSONValue] = [:]
            let start = DispatchTime.now().uptimeNanoseconds
            for url in urls {
                try await session.navigate(to: url, timeout: 30)
                values[url] = try await session.executeScript(serializedScript: body, timeout: 30)
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            await source.retire(opened)
            await source.shutdown()
            return BatchThroughputRun(secondsPerPage: elapsed / Double(urls.count), values: values)
        } catch {
            await source.shutdown()
            throw error
        }
    }
}
