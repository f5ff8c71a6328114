import Batch
import Foundation
import SystemSupport
import Testing

/// A batch's input as a table (CSV, TSV) or as JSON lines: rows whose other columns travel with
/// their URL.
struct TableInputTests {
    func entries(of text: String, name: String, format: InputFormat? = nil) throws -> [BatchEntry] {
        let folder = try ScratchFolder()
        let path = try folder.write(text, to: name)
        let reader = try InputReader(path: path, format: format ?? InputFormat.inferred(fromPath: name))
        var entries: [BatchEntry] = []
        while let entry = try reader.nextEntry() { entries.append(entry) }
        #expect(try InputReader.countEntries(path: path, format: format ?? InputFormat.inferred(fromPath: name)) == entries.count)
        return entries
    }

    @Test func aCSVRowsURLIsItsEntryAndItsOtherCellsItsFields() throws {
        let text = "\u{FEFF}id,URL,note\r\n17,https://a.example/,plain\r\n\r\n18, https://b.example/x ,\"a, \"\"quoted\"\"\nnote\"\n19,https://c.example/,\n"
        let entries = try entries(of: text, name: "pages.csv")
        #expect(entries.map(\.text) == ["https://a.example/", "https://b.example/x", "https://c.example/"])
        #expect(entries.map(\.index) == [0, 1, 2])
        #expect(entries.map(\.line) == [2, 4, 6])
        #expect(entries.allSatisfy { $0.problem == nil })
        #expect(entries[0].fields == ["id": "17", "note": "plain"])
        #expect(entries[1].fields == ["id": "18", "note": "a, \"quoted\"\nnote"])
        #expect(entries[2].fields == ["id": "19", "note": ""])
        #expect(entries[0].scriptInput == ["url": "https://a.example/", "id": "17", "note": "plain"])
    }

    @Test func aTSVIsATableWithTabs() throws {
        let entries = try entries(of: "url\tid\thttps://x/\nhttps://a.example/\t1\t\n".replacingOccurrences(of: "\thttps://x/", with: "\tlast"),
                                  name: "pages.tsv")
        #expect(entries.map(\.text) == ["https://a.example/"])
        #expect(entries[0].fields == ["id": "1", "last": ""])
    }

    @Test func aRowThatDoesNotFitTheHeaderIsAnEntryWithAProblem() throws {
        let entries = try entries(of: "url,id\nhttps://a.example/,1,extra\n,2\nhttps://c.example/,3\n", name: "pages.csv")
        #expect(entries.count == 3)
        #expect(entries[0].problem == "the row has 3 cells where the header names 2 columns")
        #expect(entries[1].problem == "the row's url cell is empty")
        #expect(entries[2].problem == nil && entries[2].fields == ["id": "3"])
    }

    @Test(arguments: [
        ("id,link\n1,https://a/\n", "names no 'url' column (it names 'id', 'link')"),
        ("url,id,url\n", "more than one 'url' column"),
        ("url,id,id\n", "names the column 'id' twice"),
        ("url,,x\n", "column 2 has no name"),
    ])
    func aHeaderWithoutOneURLColumnIsRefusedByName(text: String, reason: String) throws {
        let folder = try ScratchFolder()
        let reader = try InputReader(path: try folder.write(text, to: "pages.csv"), format: .table(delimiter: UInt8(ascii: ",")))
        #expect {
            _ = try reader.nextEntry()
        } throws: { error in
            guard let error = error as? BatchInputError, case let .badHeader(name, said) = error else { return false }
            return name.hasSuffix("pages.csv") && said.contains(reason) && error.description.contains("is not a table of pages")
        }
    }

    @Test func aJSONLineIsAnObjectWithAURLWhoseOtherMembersAreItsFields() throws {
        let text = "{\"url\":\"https://a.example/\",\"id\":7,\"tags\":[\"x\"]}\n\n[1,2]\n{\"id\":8}\n{\"url\":\"https://c.example/\"}\n"
        let entries = try entries(of: text, name: "pages.jsonl")
        #expect(entries.count == 4)
        #expect(entries[0].text == "https://a.example/" && entries[0].problem == nil)
        #expect(entries[0].fields == ["id": 7, "tags": ["x"]])
        #expect(entries[1].problem == "the line is not a JSON object")
        #expect(entries[1].line == 3)
        #expect(entries[2].problem == "the object has no string member 'url'")
        #expect(entries[3].fields == [:])
    }

    @Test func theFormatIsTheNamesUnlessGiven() throws {
        #expect(InputFormat.inferred(fromPath: "a/b.CSV") == .table(delimiter: UInt8(ascii: ",")))
        #expect(InputFormat.inferred(fromPath: "b.ndjson") == .jsonLines)
        #expect(InputFormat.inferred(fromPath: "urls.txt") == .urlList)
        #expect(InputFormat.inferred(fromPath: nil) == .urlList)
        // A list named .csv read as a list, when asked.
        let entries = try entries(of: "https://a.example/\n", name: "odd.csv", format: .urlList)
        #expect(entries.map(\.text) == ["https://a.example/"] && entries[0].fields == nil)
        #expect(entries[0].scriptInput == ["url": "https://a.example/"])
    }
}
