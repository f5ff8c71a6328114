import Batch
import Foundation
import Testing

/// What `--resume` reads back from an output file.
struct ResumeLedgerTests {
    static func record(_ index: Int, _ input: String, status: RecordStatus = .ok) -> String {
        BatchRecord(index: index, input: input, status: status, page: BatchRecord.failedPage(status: .loadFailed, message: "m", url: nil, title: nil, libraryMode: false),
                    httpStatus: nil, startedAt: Date(timeIntervalSince1970: 0), duration: 0.5, attempts: 1, engine: "webkit").line
    }

    @Test func aMissingFileIsNothingDone() throws {
        let folder = try ScratchFolder()
        let ledger = try ResumeLedger.read(path: folder.path + "/absent.jsonl")
        #expect(ledger.recordCount == 0)
        #expect(!ledger.isDone(0))
    }

    @Test func recordsMarkTheirEntriesDoneAndCountStatuses() throws {
        let folder = try ScratchFolder()
        let text = [Self.record(2, "https://b/"), Self.record(0, "https://a/", status: .timeout)].joined(separator: "\n") + "\n"
        let ledger = try ResumeLedger.read(path: try folder.write(text, to: "out.jsonl"))
        #expect(ledger.recordCount == 2)
        #expect(ledger.isDone(0) && ledger.isDone(2) && !ledger.isDone(1) && !ledger.isDone(3))
        #expect(ledger.statusCounts == [.ok: 1, .timeout: 1])
        #expect(!ledger.hasTornLastLine)
        #expect(ledger.validLength == UInt64(text.utf8.count))
        #expect(ledger.matches(BatchEntry(index: 2, line: 9, text: "https://b/")))
        #expect(!ledger.matches(BatchEntry(index: 2, line: 9, text: "https://changed/")))
        #expect(ledger.matches(BatchEntry(index: 1, line: 9, text: "anything")))
    }

    @Test(arguments: [
        "{\"index\":3,\"inp",                       // cut in the middle, as a SIGKILL leaves it
        "{\"index\":3,\"input\":\"x\",\"status\":\"ok\"}",  // whole but without its newline
        "\0\0\0\0\n",                               // what a power cut can leave
    ])
    func aTornLastLineIsDroppedAndItsEntryIsNotDone(tail: String) throws {
        let folder = try ScratchFolder()
        let whole = Self.record(0, "https://a/") + "\n"
        let ledger = try ResumeLedger.read(path: try folder.write(whole + tail, to: "out.jsonl"))
        #expect(ledger.hasTornLastLine)
        #expect(ledger.recordCount == 1)
        #expect(!ledger.isDone(3))
        #expect(ledger.validLength == UInt64(whole.utf8.count))
    }

    @Test func aBadLineBeforeTheLastIsRefused() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("not json\n" + Self.record(0, "https://a/") + "\n", to: "out.jsonl")
        #expect(throws: ResumeError.notABatchOutput(path: path, line: 1, reason: "it is not a batch record")) {
            try ResumeLedger.read(path: path)
        }
    }

    @Test func anEntryRecordedTwiceIsRefused() throws {
        let folder = try ScratchFolder()
        let path = try folder.write(Self.record(4, "https://a/") + "\n" + Self.record(4, "https://a/") + "\n", to: "out.jsonl")
        #expect(throws: ResumeError.notABatchOutput(path: path, line: 2, reason: "entry 4 is recorded a second time")) {
            try ResumeLedger.read(path: path)
        }
    }
}

/// `--resume` of a CSV output: its header, rows over several lines, a torn last row.
struct CSVResumeLedgerTests {
    static let header = "index,input,requested,status,url,title,value,more\n"

    @Test func rowsMarkTheirEntriesDoneAcrossLineBreaksInQuotedCells() throws {
        let folder = try ScratchFolder()
        let text = Self.header + "0,https://a/,https://a/,ok,https://a/,\"A\nB\",1,\n2,https://c/,https://c/,timeout,https://c/,,,\n"
        let ledger = try ResumeLedger.read(path: try folder.write(text, to: "out.csv"), format: .csv)
        #expect(ledger.recordCount == 2 && ledger.isDone(0) && ledger.isDone(2) && !ledger.isDone(1))
        #expect(ledger.statusCounts == [.ok: 1, .timeout: 1])
        #expect(ledger.tableColumns == ["index", "input", "requested", "status", "url", "title", "value", "more"])
        #expect(ledger.validLength == UInt64(text.utf8.count) && !ledger.hasTornLastLine)
    }

    @Test(arguments: ["3,https://d/,https://d/,ok,https://d/,\"cut in a quoted cell\n", "3,https://d/,https://d/,ok,https://d/,,1,"])
    func aTornLastRowIsDropped(tail: String) throws {
        let folder = try ScratchFolder()
        let whole = Self.header + "0,https://a/,https://a/,ok,https://a/,A,1,\n"
        let ledger = try ResumeLedger.read(path: try folder.write(whole + tail, to: "out.csv"), format: .csv)
        #expect(ledger.recordCount == 1 && !ledger.isDone(3))
        #expect(ledger.hasTornLastLine && ledger.validLength == UInt64(whole.utf8.count))
    }

    @Test func aJSONLinesFileIsNotResumedAsCSV() throws {
        let folder = try ScratchFolder()
        let path = try folder.write(ResumeLedgerTests.record(0, "https://a/") + "\n" + ResumeLedgerTests.record(1, "https://b/") + "\n", to: "out.csv")
        #expect(throws: ResumeError.self) { try ResumeLedger.read(path: path, format: .csv) }
    }
}
