import Foundation
import SystemSupport
import Testing
@testable import GMAPI

/// The zip reader against archives Python's `zipfile` wrote: stored and deflated entries read
/// back byte for byte, and every kind of damage or hostility refused.
struct ZipArchiveTests {
    static let script = "// ==UserScript==\n// @name Tidy\n// ==/UserScript==\n" + String(repeating: "tidy();\n", count: 200)

    @Test func storedAndDeflatedEntriesAreReadBackByteForByte() throws {
        let binary = (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let bytes = try ZipFixture.archive([
            .init("Tidy.user.js", Self.script, method: .deflated),
            .init("folder/binary.bin", bytes: binary, method: .stored),
            .init("empty.txt", "", method: .deflated),
        ])
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.map(\.name) == ["Tidy.user.js", "folder/binary.bin", "empty.txt"])
        let deflated = try #require(archive.entry(named: "Tidy.user.js"))
        #expect(deflated.method == 8)
        #expect(deflated.compressedSize < deflated.size, "the fixture is really deflated")
        #expect(try archive.contents(of: deflated) == Array(Self.script.utf8))
        let stored = try #require(archive.entry(named: "folder/binary.bin"))
        #expect(stored.method == 0)
        #expect(try archive.contents(of: stored) == binary)
        #expect(try archive.contents(of: try #require(archive.entry(named: "empty.txt"))) == [])
    }

    @Test func anEntryWhoseContentDoesNotMatchItsCRCIsRefused() throws {
        var bytes = try ZipFixture.archive([.init("Tidy.user.js", Self.script, method: .stored)])
        bytes[try ZipFixture.dataOffset(of: "Tidy.user.js", in: bytes) + 40] ^= 0x01
        let archive = try ZipArchive(bytes: bytes)
        #expect(throws: ZipError.damagedEntry(name: "Tidy.user.js", reason: "its content does not match its CRC-32")) {
            try archive.contents(of: archive.entries[0])
        }
    }

    @Test func damagedDeflateDataIsRefused() throws {
        var bytes = try ZipFixture.archive([.init("Tidy.user.js", Self.script, method: .deflated)])
        let start = try ZipFixture.dataOffset(of: "Tidy.user.js", in: bytes)
        for offset in start..<(start + 8) { bytes[offset] = 0xFF }
        let archive = try ZipArchive(bytes: bytes)
        #expect {
            try archive.contents(of: archive.entries[0])
        } throws: { error in
            guard case ZipError.damagedEntry("Tidy.user.js", let reason)? = error as? ZipError else { return false }
            return reason.contains("not valid") || reason.contains("CRC-32")
        }
    }

    @Test(arguments: [1, 30, 200])
    func aTruncatedArchiveIsNotAnArchive(cut: Int) throws {
        let bytes = try ZipFixture.archive([.init("Tidy.user.js", Self.script)])
        #expect(throws: ZipError.notAnArchive) { try ZipArchive(bytes: Array(bytes.dropLast(cut))) }
    }

    @Test func bytesThatAreNoArchiveAreRefused() {
        #expect(throws: ZipError.notAnArchive) { try ZipArchive(bytes: Array(Self.script.utf8)) }
        #expect(throws: ZipError.notAnArchive) { try ZipArchive(bytes: []) }
    }

    static let hostileNames = ["../evil.user.js", "scripts/../../evil.user.js", "/etc/evil.user.js", "..\\evil.user.js", "C:\\evil.user.js", "a/..", "\\evil.user.js"]

    @Test(arguments: hostileNames)
    func aNameThatLeavesTheFolderIsRefused(name: String) throws {
        let bytes = try ZipFixture.archive([.init("fine.user.js", Self.script), .init(name, Self.script)])
        #expect(throws: ZipError.hostileName(name)) { try ZipArchive(bytes: bytes) }
    }

    @Test func namesThatOnlyLookOddAreRead() throws {
        let names = ["..hidden.user.js", "a..b/c.user.js", "Ünïcödé ✓.user.js", "dir/", "dir/x.user.js"]
        let bytes = try ZipFixture.archive(names.map { ZipArchive.Entry.fixture($0) })
        #expect(try ZipArchive(bytes: bytes).entries.map(\.name) == names)
    }

    @Test func anEntryDeclaringMoreThanTheLimitIsRefusedBeforeItIsInflated() throws {
        let zeros = [UInt8](repeating: 0, count: 100_000)
        let bytes = try ZipFixture.archive([.init("bomb.user.js", bytes: zeros)])
        #expect(bytes.count < 1000, "the fixture compresses well")
        #expect(throws: ZipError.tooLarge("the entry \"bomb.user.js\" would inflate to 100000 bytes, more than the limit of 50000")) {
            try ZipArchive(bytes: bytes, limits: .init(maximumEntryBytes: 50_000))
        }
        #expect(throws: ZipError.tooLarge("its entries would inflate to more than 150000 bytes together")) {
            try ZipArchive(bytes: try ZipFixture.archive([.init("a", bytes: zeros), .init("b", bytes: zeros)]), limits: .init(maximumTotalBytes: 150_000))
        }
        #expect(try ZipArchive(bytes: bytes).contents(of: ZipArchive(bytes: bytes).entries[0]) == zeros)
    }

    @Test func anEntryThatInflatesToMoreThanItDeclaresIsRefused() throws {
        let zeros = [UInt8](repeating: 0, count: 100_000)
        var bytes = try ZipFixture.archive([.init("bomb.user.js", bytes: zeros)])
        // The central directory claims 1000 bytes; the data inflates to 100 000.
        let header = try ZipFixture.centralHeaderOffset(of: "bomb.user.js", in: bytes)
        bytes.replaceSubrange((header + 24)..<(header + 28), with: [0xE8, 0x03, 0x00, 0x00])
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries[0].size == 1000)
        #expect(throws: ZipError.damagedEntry(name: "bomb.user.js", reason: "it inflates to more than the 1000 bytes it declares")) {
            try archive.contents(of: archive.entries[0])
        }
    }

    @Test func twoEntriesWithOneNameAreRefused() throws {
        let bytes = try ZipFixture.archive([.init("Tidy.user.js", "a"), .init("Tidy.user.js", "b")])
        #expect(throws: ZipError.damaged("two entries are named \"Tidy.user.js\"")) { try ZipArchive(bytes: bytes) }
    }
}

extension ZipArchive.Entry {
    /// A small fixture entry with this name (a folder when it ends with `/`).
    fileprivate static func fixture(_ name: String) -> ZipFixture.Entry {
        ZipFixture.Entry(name, name.hasSuffix("/") ? "" : "x", method: .stored)
    }
}
