import Foundation
import Testing
@testable import Benchmarking

/// `pagescript bench --json`: one object that parses, with the machine, the date and every row,
/// a missing value as `null` rather than text JSON cannot read.
struct BenchmarkReportTests {
    static let rows = [
        ComparisonRow(title: "webkit: warm run vs bare Execute Script", subject: Measurement(name: "a", samples: [0.002, 0.0022, 0.0021]),
                      baseline: Measurement(name: "b", samples: [0.001]), aim: 1.2),
        ComparisonRow(title: "chromium: cold `pagescript run` process vs Playwright  (Python) process",
                      subject: Measurement(name: "c", samples: [1.1]), baseline: nil, aim: 1, note: "Playwright unavailable: no pip"),
        ComparisonRow(title: "peak RSS", subject: Measurement(name: "d", samples: [40_000_000], unit: .bytes),
                      baseline: Measurement(name: "e", samples: [], unit: .bytes), aim: nil),
    ]

    @Test
    func theJSONParsesAndHoldsEveryRow() throws {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let report = BenchmarkReport(rows: Self.rows, machine: .init(cpu: "test CPU", cores: 2, system: "test OS"), date: date)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["machine", "date", "rows"])
        #expect(object["date"] as? String == "2027-01-15T08:00:00Z")
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cpu"] as? String == "test CPU" && machine["cores"] as? Int == 2 && machine["system"] as? String == "test OS")
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == Self.rows.map(\.title))
        for row in rows {
            #expect(Set(row.keys) == ["name", "value", "baseline", "ratio", "unit", "aim", "meetsAim", "note"])
        }
        #expect(rows[0]["value"] as? Double == 0.0021)
        #expect(rows[0]["baseline"] as? Double == 0.001)
        #expect(abs((rows[0]["ratio"] as? Double ?? 0) - 2.1) < 1e-9)
        #expect(rows[0]["unit"] as? String == "seconds" && rows[0]["meetsAim"] as? Bool == false)
        #expect(rows[1]["baseline"] is NSNull && rows[1]["ratio"] is NSNull && rows[1]["meetsAim"] is NSNull)
        #expect(rows[1]["note"] as? String == "Playwright unavailable: no pip")
        // A baseline without samples has a NaN median: null, not an unreadable number.
        #expect(rows[2]["baseline"] is NSNull && rows[2]["aim"] is NSNull && rows[2]["unit"] as? String == "bytes")
    }

    @Test
    func theMachineIsReadFromThisSystem() {
        let machine = BenchmarkReport.Machine.current
        #expect(machine.cores >= 1)
        #expect(!machine.cpu.isEmpty && !machine.system.isEmpty)
        #expect(!machine.system.hasPrefix("\""))
    }
}
