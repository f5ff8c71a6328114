import Foundation
import TestSupport
import Testing
@testable import UserScripts

struct ExampleCatalogTests {
    static let catalog = Result { try ExampleCatalog.builtIn() }

    @Test func thereAreAtLeastEightBuiltInExamples() throws {
        let catalog = try Self.catalog.get()
        #expect(catalog.examples.count >= 8)
        #expect(catalog.examples.map(\.id).contains("word-count"))
        // Found in the resource bundle the build made, not through the source-folder fallback.
        #expect(catalog.directory.path(percentEncoded: false).contains("_UserScripts."))
    }

    @Test(arguments: try ExampleCatalog.builtIn().examples)
    func everyExampleRunsOnDemandAndEndsWithItsResult(_ example: ExampleScript) throws {
        let script = example.script
        #expect(script.hasMetadataBlock)
        #expect(script.value(for: "name") != nil)
        #expect(script.scriptDescription?.isEmpty == false)
        #expect(script.grants == ["none"])
        #expect(script.siteRules.isEmpty)
        #expect(script.runAt == nil)
        #expect(script.interpretation.notes.isEmpty)
        // The completion value of the last statement is the result: an object literal in parentheses.
        let lines = script.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let lastStatementStart = try #require(lines.lastIndex { $0.hasPrefix("({") })
        #expect(lines.last?.hasSuffix("});") == true)
        #expect(lines[lastStatementStart...].allSatisfy { !$0.hasPrefix("const ") && !$0.hasPrefix("let ") })
        #expect(!script.text.contains("\r"))
    }

    @Test func anExampleCanBeFoundByIDOrName() throws {
        let catalog = try Self.catalog.get()
        #expect(try catalog.example(named: "Word count").id == "word-count")
        #expect(try catalog.example(named: "WORD-COUNT").id == "word-count")
        let error = #expect(throws: LibraryError.self) { try catalog.example(named: "nope") }
        #expect(error?.description.contains("word-count") == true)
    }

    @Test func newFromExampleCopiesItIntoTheLibrary() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let example = try Self.catalog.get().example(named: "word-count")
        let copy = try library.newFromExample(example)
        #expect(copy.script.text == example.script.text)
        #expect(copy.file.lastPathComponent.hasPrefix("word-count-"))
        #expect(try library.newFromExample(example).id != copy.id)
    }

    @Test func aMissingBundleIsAnErrorThatSaysWhereItLooked() {
        let error = #expect(throws: LibraryError.self) {
            _ = try ExampleCatalog.builtIn(bundleName: "Nothing_Here", sourceFile: "/nonexistent/Examples/ExampleCatalog.swift")
        }
        guard case .examplesUnavailable(let searched)? = error else {
            Issue.record("expected examplesUnavailable, got \(String(describing: error))")
            return
        }
        #expect(searched.contains { $0.contains("Nothing_Here.resources/Scripts") })
        #expect(searched.last == "/nonexistent/Examples/Scripts")
    }
}
