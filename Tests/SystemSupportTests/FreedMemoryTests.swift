import Foundation
import SystemSupport
import Testing

struct FreedMemoryTests {
    /// This process's anonymous resident memory, in bytes (`RssAnon` in `/proc/self/status`).
    private static func residentAnonymousBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// 64 MB of small blocks, all freed but one allocated after them, which keeps the allocator
    /// from giving the space back by itself: the process stays that much larger until
    /// `returnToSystem()` hands the free pages back.
    @Test func freedBlocksBehindALiveOneGoBackToTheSystem() throws {
        let blockSize = 256
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(64 << 20 / blockSize)
        for _ in 0..<(64 << 20 / blockSize) {
            let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 0xA5, count: blockSize)
            blocks.append(block)
        }
        let sentinel = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        sentinel.initializeMemory(as: UInt8.self, repeating: 0x5A, count: blockSize)
        defer { sentinel.deallocate() }
        for block in blocks { block.deallocate() }
        blocks = []
        let held = try Self.residentAnonymousBytes()
        FreedMemory.returnToSystem()
        let after = try Self.residentAnonymousBytes()
        #expect(held - after > 32 << 20, "resident anonymous memory went from \(held >> 20) MB to \(after >> 20) MB")
    }
}
