@testable import Batch
import Foundation
import SystemSupport
import Testing

/// The output file: refusing to clobber, locking, cutting a torn line, ordering records.
struct OutputFileTests {
    static func record(_ index: Int, status: RecordStatus = .ok) -> BatchRecord {
        BatchRecord(index: index, input: "https://example.com/\(index)", status: status,
                    page: BatchRecord.failedPage(status: .loadFailed, message: "m", url: nil, title: nil, libraryMode: false),
                    httpStatus: nil, startedAt: Date(timeIntervalSince1970: 1_700_000_000), duration: 0, attempts: 1, engine: "webkit")
    }

    static func indices(in text: String) throws -> [Int] {
        try text.split(separator: "\n").map { try #require(try JSONValue(parsing: String($0))["index"]?.intValue) }
    }

    @Test func anOutputWithResultsIsNotOverwrittenWithoutResume() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("https://a/\n", to: "urls.txt")
        let output = try folder.write(Self.record(0).line + "\n", to: "out.jsonl")
        #expect(throws: BatchSetupError.outputExists(path: output)) {
            try BatchPlan.prepare(inputPath: input, outputPath: output, resume: false)
        }
        #expect(throws: BatchSetupError.resumeNeedsOutput) {
            try BatchPlan.prepare(inputPath: input, outputPath: nil, resume: true)
        }
        #expect(try folder.read("out.jsonl") == Self.record(0).line + "\n")
    }

    @Test func resumingCutsTheTornLineCountsTheInputAndLocksTheFile() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("https://example.com/0\n# comment\nhttps://example.com/1\nhttps://example.com/2\n", to: "urls.txt")
        let output = try folder.write(Self.record(0).line + "\n{\"index\":1,\"in", to: "out.jsonl")
        let plan = try BatchPlan.prepare(inputPath: input, outputPath: output, resume: true)
        #expect(plan.total == 3)
        #expect(plan.ledger.recordCount == 1)
        #expect(try folder.read("out.jsonl") == Self.record(0).line + "\n")
        #expect(throws: ResultLogError.busy(name: output)) { try ResultLog(path: output) }
        plan.log.close()
        try ResultLog(path: output).close()
    }

    @Test func resumingWithAnotherListIsRefusedBeforeAnythingRuns() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("https://example.com/0\nhttps://other.example/\n", to: "urls.txt")
        let output = try folder.write(Self.record(0).line + "\n" + Self.record(1).line + "\n", to: "out.jsonl")
        #expect(throws: BatchSetupError.inputChanged(line: 2, index: 1)) {
            try BatchPlan.prepare(inputPath: input, outputPath: output, resume: true)
        }
    }

    @Test func inInputOrderRecordsWaitForEarlierOnesAndSkipRecordedEntries() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write(Self.record(1).line + "\n", to: "out.jsonl")
        let ledger = try ResumeLedger.read(path: path)
        let log = try ResultLog(path: path)
        let sink = RecordSink(log: log, ledger: ledger, ordered: true, capacity: 2, startedAt: 0)
        await sink.submit(Self.record(3))
        await sink.submit(Self.record(2))
        #expect(try Self.indices(in: folder.read("out.jsonl")) == [1])
        // Entry 4 is two ahead of the missing entry 0: it must wait for room.
        let waiter = Task { await sink.waitForRoom(before: 4); return Date() }
        try await Task.sleep(nanoseconds: 100_000_000)
        let released = Date()
        await sink.submit(Self.record(0))
        #expect(await waiter.value >= released)
        #expect(try Self.indices(in: folder.read("out.jsonl")) == [1, 0, 2, 3])
        await sink.submit(Self.record(4, status: .timeout))
        let progress = await sink.progress(now: 5)
        #expect(progress.written == 4)
        #expect(progress.statusCounts == [.ok: 3, .timeout: 1])
        log.close()
    }

    @Test func aClosedPipeIsReportedAsTheReaderGoingAway() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        close(descriptors[0])
        defer { close(descriptors[1]) }
        // As the executable does: a closed pipe is an error to handle, not a signal.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let log = ResultLog(descriptor: descriptors[1], name: "the pipe")
        #expect(throws: ResultLogError.closedByReader(name: "the pipe")) { try log.append("{}") }
    }
}
