import Batch
import Foundation
import Testing

/// The URL list streams: lines, blanks, comments, odd encodings and enormous lines.
struct InputReaderTests {
    func entries(of bytes: [UInt8]) throws -> [BatchEntry] {
        let folder = try ScratchFolder()
        let reader = try InputReader(path: try folder.write(bytes, to: "urls.txt"))
        var entries: [BatchEntry] = []
        while let entry = try reader.nextEntry() { entries.append(entry) }
        return entries
    }

    @Test func numbersOnlyURLLinesAndSkipsBlanksAndComments() throws {
        let text = "\u{FEFF}https://a.example/\r\n\n   # a comment\n\t https://b.example/x  \n#https://skipped.example/\nnot a url\nhttps://a.example/"
        let entries = try entries(of: Array(text.utf8))
        #expect(entries.map(\.text) == ["https://a.example/", "https://b.example/x", "not a url", "https://a.example/"])
        #expect(entries.map(\.index) == [0, 1, 2, 3])
        #expect(entries.map(\.line) == [1, 4, 6, 7])
        #expect(entries.allSatisfy { $0.problem == nil })
    }

    @Test func aLineLongerThanTheLimitIsAnEntryWithAProblemAndTheRestIsSkipped() throws {
        let long = String(repeating: "x", count: InputReader.maximumLineLength * 2 + 17)
        let entries = try entries(of: Array("https://a.example/\nhttps://\(long)\nhttps://c.example/\n".utf8))
        #expect(entries.count == 3)
        #expect(entries[1].problem?.contains("longer than 64 KiB") == true)
        #expect(entries[1].text.count < 100)
        #expect(entries[2].text == "https://c.example/")
        #expect(entries[2].index == 2)
    }

    @Test func aLineThatIsNotUTF8IsAnEntryWithAProblem() throws {
        let entries = try entries(of: Array("https://a.example/\n".utf8) + [0x68, 0x74, 0xFF, 0xFE, 0x0A])
        #expect(entries.count == 2)
        #expect(entries[1].problem == "the line is not UTF-8 text")
    }

    @Test func linesAcrossChunkBoundariesArriveWhole() throws {
        // 3,000 lines of varying length cross many 64 KiB reads.
        let lines = (0..<3000).map { "https://example.com/\($0)/" + String(repeating: "p", count: $0 % 97) }
        let entries = try entries(of: Array(lines.joined(separator: "\n").utf8))
        #expect(entries.map(\.text) == lines)
        let folder = try ScratchFolder()
        #expect(try InputReader.countEntries(path: try folder.write(lines.joined(separator: "\n") + "\n# end\n", to: "u.txt")) == 3000)
    }

    @Test func aDirectoryIsRefused() throws {
        let folder = try ScratchFolder()
        #expect(throws: BatchInputError.unreadable(name: folder.path, reason: "it is a directory")) {
            try InputReader(path: folder.path)
        }
    }
}
