import Foundation
import TestSupport
import Testing
@testable import UserScripts

/// `.pagescript-index`: what PageScript concluded about each file, kept beside the files.
struct LibraryIndexTests {
    /// The corpus dropped into a library folder by hand, as a user copies scripts in.
    private func libraryWithCorpus(_ folder: TemporaryDirectory) throws -> ScriptLibrary {
        try FileManager.default.createDirectory(at: folder.file("library"), withIntermediateDirectories: true)
        for script in RealWorldCorpus.scripts {
            try Data(script.bytes).write(to: folder.file("library/\(script.file)"))
        }
        return try ScriptLibrary(directory: folder.file("library"))
    }

    @Test func everyInterpretationSurvivesTheIndex() throws {
        let folder = try TemporaryDirectory()
        let library = try libraryWithCorpus(folder)
        let first = try library.scripts()
        #expect(first.count == RealWorldCorpus.scripts.count)
        let bytes = Array(try Data(contentsOf: folder.file("library/\(LibraryIndex.fileName)")))
        let index = try #require(LibraryIndex(bytes: bytes))
        #expect(index.entries.count == first.count)
        for stored in first {
            let entry = try #require(index.entries[stored.file.lastPathComponent])
            #expect(entry.interpretation == stored.interpretation)
            #expect(entry.fingerprint == stored.fingerprint)
        }
        // A cold start reads the same conclusions back, and matching works from them alone.
        let cold = try ScriptLibrary(directory: folder.file("library"))
        for stored in first {
            #expect(try cold.interpretation(of: stored.id) == stored.interpretation)
        }
        #expect(try cold.which(url: try PageURL("https://www.example.com/")).map(\.script.name).contains("New Userscript"))
    }

    @Test(arguments: ["garbage", "truncated", "otherFormat", "empty"])
    func aDamagedIndexIsRebuiltWithoutAWord(_ damage: String) throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: ScriptLibraryTests.tidy)
        let indexFile = folder.file(LibraryIndex.fileName)
        var bytes = Array(try Data(contentsOf: indexFile))
        switch damage {
        case "garbage": bytes = Array("not an index at all, but long enough".utf8)
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "otherFormat": bytes = LibraryIndex.rewritten(bytes, format: LibraryIndex.format + 1)
        default: bytes = []
        }
        try Data(bytes).write(to: indexFile)
        let cold = try ScriptLibrary(directory: folder.url)
        #expect(try cold.which(url: try PageURL("https://example.com/")).map(\.script.id) == [stored.id])
        #expect(try cold.problems().isEmpty)
        let rebuilt = try #require(LibraryIndex(bytes: Array(try Data(contentsOf: indexFile))))
        #expect(rebuilt.entries.keys.sorted() == [stored.file.lastPathComponent])
    }

    @Test func aFileChangedSinceTheIndexWasWrittenIsReadAgain() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: ScriptLibraryTests.tidy)
        try folder.write(ScriptLibraryTests.tidy.replacingOccurrences(of: "*://example.com/*", with: "*://example.org/*"), to: stored.file.lastPathComponent)
        let cold = try ScriptLibrary(directory: folder.url)
        #expect(try cold.which(url: try PageURL("https://example.com/")).isEmpty)
        #expect(try cold.which(url: try PageURL("https://example.org/")).map(\.script.id) == [stored.id])
        let index = try #require(LibraryIndex(bytes: Array(try Data(contentsOf: folder.file(LibraryIndex.fileName)))))
        #expect(index.entries[stored.file.lastPathComponent]?.interpretation.rules.first?.text == "*://example.org/*")
    }

    @Test func aDeletedFileLeavesTheIndex() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let kept = try library.create(text: ScriptLibraryTests.tidy)
        let gone = try library.create(text: ScriptLibraryTests.tidy)
        try FileManager.default.removeItem(at: gone.file)
        let cold = try ScriptLibrary(directory: folder.url)
        #expect(try cold.scripts().map(\.id) == [kept.id])
        let index = try #require(LibraryIndex(bytes: Array(try Data(contentsOf: folder.file(LibraryIndex.fileName)))))
        #expect(index.entries.keys.sorted() == [kept.file.lastPathComponent])
    }

    @Test func aReadOnlyFolderStillWorksWithoutAnIndex() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: ScriptLibraryTests.tidy)
        try FileManager.default.removeItem(at: folder.file(LibraryIndex.fileName))
        // The index is a cache: failing to write it changes nothing for the caller.
        try FileManager.default.createDirectory(at: folder.file(LibraryIndex.fileName), withIntermediateDirectories: false)
        let cold = try ScriptLibrary(directory: folder.url)
        #expect(try cold.which(url: try PageURL("https://example.com/")).map(\.script.id) == [stored.id])
    }
}

extension LibraryIndex {
    /// The same index under another format number, with a valid checksum: what an index written by
    /// another version of PageScript looks like.
    static func rewritten(_ bytes: [UInt8], format: UInt64) -> [UInt8] {
        guard LibraryIndex(bytes: bytes) != nil else { return bytes }
        var writer = BinaryWriter()
        writer.append(raw: Array("PSIX".utf8))
        writer.write(format)
        writer.write(UInt64(0))
        var payload = writer.bytes
        let hash = FileFingerprint.hash(payload[...])
        for shift in 0..<8 { payload.append(UInt8(truncatingIfNeeded: hash >> (8 * UInt64(shift)))) }
        return payload
    }
}
