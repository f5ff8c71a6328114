import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript batch` over a table of pages and into a table of records, end to end: the built
/// binary, real engines, a loopback site, and Python's `csv` module reading the result.
@Suite(.serialized)
struct BatchTableTests {
    /// A CSV input's `id` reaches the script as `input.id` and every record as `fields.id`; the
    /// same batch written as CSV reads back, with Python's `csv`, to the JSON lines' values.
    @Test(arguments: ["webkit", "chromium"])
    func aCSVInputsIdTravelsWithItsPageAndCSVOutputReadsBackAsTheJSONLines(engine: String) throws {
        let site = try BatchCommandTests.site()
        defer { site.stop() }
        let folder = try BatchCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let note = "a, \"quoted\"\nnote"
        var rows = ["id,url,note"]
        rows += (1...4).map { "p\($0),\(site.url("/fast/\($0)")),\"\(note.replacingOccurrences(of: "\"", with: "\"\""))\"" }
        rows += ["p5,\(site.url("/missing/5")),", "p6,not a url,", "p7,\(site.url("/hostile/7")),"]
        let input = folder + "/pages.csv"
        try Data((rows.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: input))
        let script = "({ id: input.id, note: input.note, title: document.title, seen: input.url === location.href })"
        var records: [[String: Any]] = []
        for output in ["out.jsonl", "out.csv"] {
            let batch = try BatchCommandTests.RunningBatch(
                [input, "-e", script, "--engine", engine, "--jobs", "2", "--ordered", "--output", folder + "/" + output], in: folder)
            #expect(batch.wait() == 1, "\(batch.standardError)")
            if output == "out.jsonl" {
                records = try BatchCommandTests.records(try String(contentsOfFile: folder + "/out.jsonl", encoding: .utf8))
            }
        }
        #expect(records.count == 7)
        #expect(records.map { ($0["fields"] as? [String: Any])?["id"] as? String } == (1...7).map { "p\($0)" }, "\(records)")
        #expect(records.map { $0["status"] as? String } == ["ok", "ok", "ok", "ok", "http-error", "invalid-url", "ok"], "\(records)")
        for record in records.prefix(4) {
            let value = try #require(record["value"] as? [String: Any], "\(record)")
            #expect(value["id"] as? String == (record["fields"] as? [String: Any])?["id"] as? String)
            #expect(value["note"] as? String == note && value["seen"] as? Bool == true, "\(record)")
            #expect(record["schema"] as? Int == 1)
        }
        let table = try ReferenceCSV.rows(of: folder + "/out.csv")
        #expect(table.count == records.count)
        for (row, record) in zip(table, records) {
            let fields = record["fields"] as? [String: Any] ?? [:]
            let value = record["value"] as? [String: Any] ?? [:]
            #expect(row["index"] == "\(record["index"] as? Int ?? -1)")
            #expect(row["input"] == record["input"] as? String)
            #expect(row["id"] == fields["id"] as? String && row["note"] == fields["note"] as? String, "\(row)")
            #expect(row["status"] == record["status"] as? String && row["url"] == (record["url"] as? String ?? ""), "\(row)")
            #expect(row["title"] == (record["title"] as? String ?? ""), "\(row)")
            #expect(row["value.id"] == (value["id"] as? String ?? "") && row["value.note"] == (value["note"] as? String ?? ""), "\(row)")
            #expect(row["value.title"] == (value["title"] as? String ?? ""), "\(row)")
            #expect(row["seen"] == (value["seen"] as? Bool).map { "\($0)" } ?? "", "\(row)")
            #expect(row["httpStatus"] == (record["httpStatus"] as? Int).map { "\($0)" } ?? "", "\(row)")
            let error = (record["error"] as? [String: Any])?["message"] as? String
            #expect(error == nil || row["error"]?.contains(error ?? "") == true, "\(row)")
            #expect(row["more"] == "", "\(row)")
        }
        // The hostile page's title is data in the file, whole.
        let hostile = try #require((records[6]["value"] as? [String: Any])?["title"] as? String)
        #expect(hostile.unicodeScalars.contains("\u{202E}"))
        #expect(table[6]["value.title"].map { Array($0.unicodeScalars) } == Array(hostile.unicodeScalars))
    }

    /// `--resume` continues a CSV output under its own header: every entry once, one header.
    @Test func aCSVOutputIsResumedUnderItsHeader() throws {
        let site = try BatchCommandTests.site()
        defer { site.stop() }
        let folder = try BatchCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/pages.jsonl"
        let lines = (1...4).map { "{\"url\":\"\(site.url("/fast/\($0)"))\",\"n\":\($0)}" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let output = folder + "/out.csv"
        let first = (Self.headerAndRows(of: 2, site: site))
        try Data(first.utf8).write(to: URL(fileURLWithPath: output))
        let batch = try BatchCommandTests.RunningBatch(
            [input, "-e", "({ n: input.n, t: document.title })", "--engine", "chromium", "--output", output, "--resume"], in: folder)
        #expect(batch.wait() == 0, "\(batch.standardError)")
        let table = try ReferenceCSV.rows(of: output)
        #expect(table.map { $0["index"] ?? "" }.sorted() == ["0", "1", "2", "3"], "\(table)")
        let last = try #require(table.first { $0["index"] == "3" }, "\(table)")
        #expect(last["n"] == "4" && last["value.n"] == "4" && last["t"]?.hasPrefix("Page") == true, "\(last)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).components(separatedBy: "index,input").count == 2)
    }

    /// What an earlier, interrupted run of the resume test wrote: a header and `count` rows.
    static func headerAndRows(of count: Int, site: LoopbackServer) -> String {
        var text = "index,input,n,requested,status,url,title,value.n,t,value,console,dialogs,error,httpStatus,load,startedAt,durationMs,attempts,engine,schema,more\n"
        for index in 0..<count {
            let url = site.url("/fast/\(index + 1)")
            text += "\(index),\(url),\(index + 1),\(url),ok,\(url),Page,\(index + 1),Page,,[],[],,200,,2026-01-01T00:00:00.000Z,5,1,chromium,1,\n"
        }
        return text
    }

    /// A table whose header names no `url` column is refused before anything starts, saying so.
    @Test func aTableWithoutAURLColumnIsRefused() throws {
        let folder = try BatchCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/pages.csv"
        try Data("id,link\n1,http://127.0.0.1:9/\n".utf8).write(to: URL(fileURLWithPath: input))
        let refused = try PageScriptBinary.run(["batch", input, "-e", "1"])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("is not a table of pages: its first line names no 'url' column"), "\(refused.standardError)")
    }
}
