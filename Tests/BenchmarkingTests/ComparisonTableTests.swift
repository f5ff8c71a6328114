import Testing
@testable import Benchmarking

struct ComparisonTableTests {
    private func seconds(_ values: Double...) -> Measurement {
        Measurement(name: "m", samples: values)
    }

    @Test func rendersAHeaderAndOneLinePerRowWithRatioAndVerdict() {
        let rows = [
            ComparisonRow(title: "webkit: warm run vs bare Execute Script", subject: seconds(0.0022), baseline: seconds(0.0020), aim: 1.2),
            ComparisonRow(title: "chromium: cold run vs driver new session", subject: seconds(1.5), baseline: seconds(1.0), aim: 1.2),
        ]
        let lines = ComparisonTable.render(rows).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("comparison"))
        #expect(lines[1].hasPrefix("webkit: warm run vs bare Execute Script"))
        #expect(lines[1].contains("2.20 ms") && lines[1].contains("2.00 ms") && lines[1].contains("1.10x"))
        #expect(lines[1].hasSuffix("<= 1.2x met"))
        #expect(lines[2].contains("1.50 s") && lines[2].contains("1.50x"))
        #expect(lines[2].hasSuffix("<= 1.2x MISSED"))
    }

    @Test func columnsLineUpWhateverTheTitleLength() {
        let rows = [
            ComparisonRow(title: "short", subject: seconds(1), baseline: seconds(1), aim: nil),
            ComparisonRow(title: String(repeating: "long ", count: 20), subject: seconds(1), baseline: seconds(1), aim: nil),
        ]
        let lines = ComparisonTable.render(rows).split(separator: "\n").map(String.init)
        let subjectColumns = lines.map { $0.range(of: "1.00 s")?.lowerBound.utf16Offset(in: $0) }
        #expect(subjectColumns[1] == subjectColumns[2])
        #expect(lines[0].range(of: "subject")?.lowerBound.utf16Offset(in: lines[0]) == subjectColumns[1])
    }

    @Test func aBudgetRowReadsAsTheFractionOfTheBudgetUsed() throws {
        let row = ComparisonRow.budget(title: "match one URL (vs budget 20 us)", subject: seconds(5e-6), budget: 20e-6)
        #expect(row.aim == 1)
        #expect(try #require(row.ratio) == 0.25)
        #expect(row.meetsAim == true)
        let line = ComparisonTable.render([row]).split(separator: "\n")[1]
        #expect(line.contains("5.00 us") && line.contains("20.00 us") && line.contains("0.25x") && line.hasSuffix("<= 1.0x met"))
    }

    @Test func aRowWithoutBaselineOrAimShowsDashes() {
        let row = ComparisonRow(title: "peak RSS (peer skipped)", subject: Measurement(name: "m", samples: [40 * 1_048_576], unit: .bytes),
                                baseline: nil, aim: nil)
        #expect(row.ratio == nil && row.meetsAim == nil)
        let line = ComparisonTable.render([row]).split(separator: "\n")[1]
        #expect(line.contains("40.0 MB"))
        #expect(line.split(separator: " ").suffix(3) == ["-", "-", "-"])
    }

    @Test(arguments: [
        (2.5, Measurement.Unit.seconds, "2.50 s"), (0.0125, .seconds, "12.50 ms"), (3.2e-6, .seconds, "3.20 us"),
        (850e-9, .seconds, "850 ns"), (512, .bytes, "512 B"), (2048, .bytes, "2.0 kB"), (38.4 * 1_048_576, .bytes, "38.4 MB"),
    ])
    func formatsValuesInAUnitThatSuitsThem(value: Double, unit: Measurement.Unit, text: String) {
        #expect(ComparisonTable.format(value, unit: unit) == text)
    }
}
