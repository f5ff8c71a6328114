import Testing
@testable import TerminalUI

/// The search index's quick paths (the joined lines scanned 16 bytes at a time, and the list of
/// matches kept between edits) against a plain line-by-line search.
@Suite("Search index: next match and counts")
struct SearchIndexTests {
    /// Lines of every length around the scanner's 16-byte blocks, with the needle at the start,
    /// the end, across block edges, next to wide and combined characters, and halves of it
    /// (`nee`, `dle`) that must not match.
    static func document(repeats: Int) -> [[Character]] {
        var lines: [[Character]] = []
        for index in 0..<repeats {
            let padding = String(repeating: "n", count: index % 19)
            lines.append(Array(padding + "needle" + String(repeating: "e", count: index % 7)))
            lines.append(Array("nee dle \(padding) é日本 NEEDLE needlé"))
            lines.append([])
            lines.append(Array(String(repeating: "needle", count: index % 3) + "🙂needle"))
        }
        return lines
    }

    /// Every match, found line by line.
    static func allMatches(of needle: [UInt8], lines: [[Character]]) -> [TextRange] {
        var index = SearchIndex()
        var all: [TextRange] = []
        for row in lines.indices {
            for found in index.matches(of: needle, inRow: row, lines: lines) {
                all.append(TextRange(TextPosition(row: row, column: found.lowerBound), TextPosition(row: row, column: found.upperBound)))
            }
        }
        return all
    }

    /// 40 repeats hold about 160 matches (listed); 2,600 hold more than ``SearchIndex/listLimit``
    /// (scanned).
    @Test(arguments: [40, 2_600])
    func nextAgreesWithALineByLineSearch(repeats: Int) {
        let lines = Self.document(repeats: repeats)
        var index = SearchIndex()
        let needle = index.fold("Needle")
        let all = Self.allMatches(of: needle, lines: lines)
        #expect((all.count > SearchIndex.listLimit) == (repeats > 40), "\(all.count) matches")
        #expect(index.count(of: needle, lines: lines, limit: .max) == all.count)
        let rows = Array(stride(from: 0, to: lines.count, by: max(1, lines.count / 60))) + [lines.count - 1]
        for row in rows {
            for column in Set([0, 3, 7, lines[row].count]) where column <= lines[row].count {
                let position = TextPosition(row: row, column: column)
                for forward in [true, false] {
                    let found = index.next(needle, from: position, forward: forward, lines: lines)
                    // By definition: the first at or after the position, round the end (or the
                    // last before it, going back).
                    let wanted = forward ? all.first { $0.start >= position } ?? all.first : all.last { $0.start < position } ?? all.last
                    #expect(found == wanted, "from \(row):\(column), \(forward ? "forward" : "backward")")
                }
            }
        }
    }

    @Test(arguments: [40, 2_600])
    func countsAgreeWithALineByLineCount(repeats: Int) {
        let lines = Self.document(repeats: repeats)
        var index = SearchIndex()
        let needle = index.fold("needle")
        var perRow: [Int] = []
        for row in lines.indices { perRow.append(index.matches(of: needle, inRow: row, lines: lines).count) }
        #expect(index.count(of: needle, lines: lines, limit: .max) == perRow.reduce(0, +))
        #expect(index.count(of: needle, lines: lines, limit: 5) == 5)
        for row in [0, 1, 2, 3, 4, lines.count / 2, lines.count] {
            #expect(index.count(of: needle, lines: lines, limit: .max, inRowsBefore: row) == perRow.prefix(row).reduce(0, +), "before row \(row)")
        }
    }

    /// An edit drops what the index kept: the next search sees the new text.
    @Test func anEditIsSeenByTheNextSearch() {
        var lines: [[Character]] = [Array("a needle"), Array("none"), Array("needle b")]
        var index = SearchIndex()
        let needle = index.fold("needle")
        #expect(index.count(of: needle, lines: lines, limit: .max) == 2)
        lines[1] = Array("needle")
        index.replaceRows(1...1, insertedCount: 1)
        #expect(index.count(of: needle, lines: lines, limit: .max) == 3)
        #expect(index.next(needle, from: TextPosition(row: 0, column: 3), forward: true, lines: lines)?.start == TextPosition(row: 1, column: 0))
        lines.remove(at: 1)
        index.replaceRows(1...2, insertedCount: 1)
        lines[1] = Array("b")
        #expect(index.next(needle, from: TextPosition(row: 0, column: 3), forward: true, lines: lines)?.start == TextPosition(row: 0, column: 2))
        #expect(index.count(of: needle, lines: lines, limit: .max) == 1)
    }
}
