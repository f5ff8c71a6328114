@testable import Batch
import Foundation
import PageRuntime
import SystemSupport
import TestSupport
import Testing

/// `--format csv`: records laid out as CSV rows under one header, nothing left out.
struct RecordTableTests {
    static func record(_ index: Int, fields: JSONValue?, value: JSONValue?, status: RecordStatus = .ok) throws -> BatchRecord {
        let page: PageReport
        if let value {
            let result = ScriptResult(context: try PageContext(url: "https://a.example/\(index)", title: "A \(index)"), value: value, console: [], error: nil)
            page = .completed(.script(result, screenshot: nil))
        } else {
            page = BatchRecord.failedPage(status: status, message: "it failed", url: "https://a.example/\(index)", title: nil, libraryMode: false)
        }
        return BatchRecord(index: index, input: "https://a.example/\(index)", fields: fields, requested: "https://a.example/\(index)",
                           status: status, page: page, httpStatus: 200, startedAt: Date(timeIntervalSince1970: 0), duration: 0.25,
                           attempts: 1, engine: "webkit")
    }

    /// Hands `records` to a batch's sink writing CSV into a file, and reads it back with Python's `csv`.
    static func readBack(_ records: [BatchRecord]) async throws -> (text: String, rows: [[String: String]]) {
        let folder = try ScratchFolder()
        let path = folder.path + "/out.csv"
        let log = try ResultLog(path: path)
        let sink = RecordSink(log: log, ledger: .empty, ordered: false, capacity: 10, startedAt: 0,
                              table: RecordTable(columns: nil, escapingForTerminal: false))
        for record in records { #expect(await sink.submit(record)) }
        #expect(await sink.finish())
        log.close()
        let ledger = try ResumeLedger.read(path: path, format: .csv)
        #expect(ledger.recordCount == records.count && !ledger.hasTornLastLine)
        let text = try folder.read("out.csv")
        let python = try ReferenceCSV.rows(of: path)
        return (text, python)
    }

    @Test func aValuesMembersAndARowsFieldsGetColumnsNamedSoThatNoneIsTakenTwice() async throws {
        let records = [
            try Self.record(0, fields: ["id": "a1", "title": "expected"], value: ["id": 1, "title": "T", "tags": ["x", "y"], "note": "a, \"b\"\nc"]),
            try Self.record(1, fields: ["id": "a2", "title": "other"], value: nil, status: .timeout),
            try Self.record(2, fields: ["id": "a3", "title": ""], value: ["id": 3, "extra": true]),
            try Self.record(3, fields: ["id": "a4", "title": "x"], value: "just text"),
        ]
        let (text, rows) = try await Self.readBack(records)
        let header = try #require(text.split(separator: "\n").first)
        #expect(header == "index,input,id,input.title,requested,status,url,title,value.id,value.title,tags,note,value,console,dialogs,error,httpStatus,load,startedAt,durationMs,attempts,engine,schema,more")
        #expect(rows.count == 4)
        #expect(rows.map { $0["id"] } == ["a1", "a2", "a3", "a4"])
        #expect(rows[0]["value.id"] == "1" && rows[0]["value.title"] == "T" && rows[0]["tags"] == "[\"x\",\"y\"]")
        #expect(rows[0]["note"] == "a, \"b\"\nc" && rows[0]["value"] == "" && rows[0]["more"] == "")
        #expect(rows[1]["status"] == "timeout" && rows[1]["error"]?.contains("it failed") == true)
        // A member without a column of its own stays in `value`, as an object.
        #expect(rows[2]["value"] == "{\"extra\":true}" && rows[2]["value.id"] == "3")
        #expect(rows[3]["value"] == "just text")
        #expect(rows.map { $0["schema"] } == Array(repeating: "\(BatchRecord.schemaVersion)", count: 4))
    }

    @Test func recordsWaitForAValueBeforeTheHeaderIsWrittenAndAllComeOut() async throws {
        let records = [try Self.record(0, fields: nil, value: nil, status: .loadFailed), try Self.record(1, fields: nil, value: ["n": 1])]
        let (text, rows) = try await Self.readBack(records)
        #expect(text.hasPrefix("index,input,requested,status,url,title,n,value,"))
        #expect(rows.map { $0["index"] } == ["0", "1"])
        #expect(rows[1]["n"] == "1")
    }

    @Test func aBatchWithNoValueAtAllStillWritesEveryRecord() async throws {
        let (_, rows) = try await Self.readBack([try Self.record(0, fields: nil, value: nil, status: .loadFailed)])
        #expect(rows.count == 1 && rows[0]["status"] == "load-failed")
    }
}
