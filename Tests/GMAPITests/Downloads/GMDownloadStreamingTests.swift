import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `GM_download` writes the body to disk as it arrives: against real loopback servers and a real
/// folder, a large file arrives whole in bounded memory, and every way a download can break off
/// (the size limit, a dropped connection, a timeout, an abort, its folder removed) leaves no
/// partial file behind.
struct GMDownloadStreamingTests {
    static let policy = ConnectPolicy(values: ["127.0.0.1"])

    /// The files and folders in `temporary`, at any depth, hidden ones included.
    static func allFiles(in temporary: TemporaryDirectory) -> [String] {
        FileManager.default.enumerator(atPath: temporary.path)?.compactMap { $0 as? String } ?? []
    }

    /// Waits until `temporary` holds a partial file at any depth (the body has started to arrive).
    static func waitForPartialFile(in temporary: TemporaryDirectory) async throws {
        for _ in 0..<500 {
            if allFiles(in: temporary).contains(where: { $0.hasSuffix(".part") }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no partial file appeared in \(temporary.path)")
    }

    /// A body without `Content-Length` that grows past the limit is refused as it arrives.
    @Test func aBodyOverTheLimitIsRefusedAndItsPartRemoved() async throws {
        let server = try LoopbackServer { _ in .chunked(chunkSize: 64 * 1024, count: 64) }
        defer { server.stop() }
        let temporary = try TemporaryDirectory("gm-download")
        var configuration = GMDownloadTests.quick
        configuration.maximumDownloadBytes = 1024 * 1024
        let record = await GMRequestPerformer.withPerformer(configuration) { performer in
            await performer.download(GMDownload(url: server.url("/big.bin")), policy: Self.policy, pageURL: nil, into: DownloadFolder(directory: temporary.url))
        }
        #expect(record.error == .notSucceeded)
        #expect(record.message?.contains("larger than PageScript's limit of 1 MiB") == true)
        #expect(try temporary.entries().isEmpty)
    }

    @Test func aConnectionDroppedMidBodyLeavesNoPartialFile() async throws {
        let server = try LoopbackServer { _ in .headThenStall(headers: [("Content-Type", "application/octet-stream")]) }
        let temporary = try TemporaryDirectory("gm-download")
        let record = try await GMRequestPerformer.withPerformer(GMDownloadTests.quick) { performer in
            async let record = performer.download(GMDownload(url: server.url("/cut.bin")), policy: Self.policy, pageURL: nil,
                                                  into: DownloadFolder(directory: temporary.url))
            try await Self.waitForPartialFile(in: temporary)
            server.stop()
            return await record
        }
        #expect(record.error == .notSucceeded)
        #expect(record.message?.contains("GM_download to \(server.url("/cut.bin")) failed") == true)
        #expect(try temporary.entries().isEmpty)
    }

    /// A body that stops half-way times out, and one whose task is cancelled (the run ended) is
    /// aborted: neither leaves its partial file.
    @Test func aTimeoutOrAnAbortMidBodyLeavesNoPartialFile() async throws {
        let stalling = try LoopbackServer { _ in .headThenStall(headers: [("Content-Type", "application/octet-stream")]) }
        defer { stalling.stop() }
        let held = PatternServer(total: 1024 * 1024, heldAfter: 64 * 1024)
        let port = try held.start()
        defer { held.stop() }
        let temporary = try TemporaryDirectory("gm-download")
        let folder = DownloadFolder(directory: temporary.url)
        try await GMRequestPerformer.withPerformer(GMDownloadTests.quick) { performer in
            let timedOut = await performer.download(GMDownload(url: stalling.url("/slow.bin"), timeout: 0.5), policy: Self.policy, pageURL: nil, into: folder)
            #expect(timedOut.timedOut)
            #expect(timedOut.callback == "ontimeout")
            #expect(try temporary.entries().isEmpty)
            let task = Task {
                await performer.download(GMDownload(url: "http://127.0.0.1:\(port)/held.bin"), policy: Self.policy, pageURL: nil, into: folder)
            }
            try await Self.waitForPartialFile(in: temporary)
            task.cancel()
            let aborted = await task.value
            #expect(aborted.error == .notSucceeded)
            #expect(aborted.message?.hasSuffix("was aborted") == true)
            #expect(try temporary.entries().isEmpty)
        }
    }

    /// A name that cannot be saved (its subfolder a link out of the folder) is refused once the
    /// head has arrived; the unread body is dropped with its connection, and nothing is written.
    @Test func aFileThatCannotBeStartedLeavesTheBodyUnread() async throws {
        let held = PatternServer(total: 4 * 1024 * 1024, heldAfter: 64 * 1024)
        let port = try held.start()
        defer { held.stop() }
        let temporary = try TemporaryDirectory("gm-download")
        try FileManager.default.createDirectory(at: temporary.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporary.file("Downloads"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temporary.path("Downloads/sub"), withDestinationPath: temporary.path("elsewhere"))
        let record = await GMRequestPerformer.withPerformer(GMDownloadTests.quick) { performer in
            await performer.download(GMDownload(url: "http://127.0.0.1:\(port)/a.bin", name: "sub/a.bin"), policy: Self.policy, pageURL: nil,
                                     into: DownloadFolder(directory: temporary.file("Downloads")))
        }
        #expect(record.message?.hasPrefix("the file could not be saved: ") == true)
        #expect(try temporary.entries("elsewhere").isEmpty)
        #expect(try temporary.entries("Downloads") == ["sub"])
    }

    /// The folder the file is written in is deleted while the body arrives: the download fails
    /// as soon as it writes again, saying so, and leaves nothing.
    @Test func aFolderRemovedMidDownloadGivesItsOwnRecord() async throws {
        let gate = PatternServer(total: 4 * 1024 * 1024, heldAfter: 64 * 1024)
        let port = try gate.start()
        let temporary = try TemporaryDirectory("gm-download")
        let record = try await GMRequestPerformer.withPerformer(GMDownloadTests.quick) { performer in
            async let record = performer.download(GMDownload(url: "http://127.0.0.1:\(port)/a.bin", name: "sub/a.bin"), policy: Self.policy,
                                                  pageURL: nil, into: DownloadFolder(directory: temporary.url))
            try await Self.waitForPartialFile(in: temporary)
            try FileManager.default.removeItem(at: temporary.file("sub"))
            gate.open()
            return await record
        }
        gate.stop()
        #expect(record.error == .notSucceeded)
        #expect(record.path == nil)
        #expect(record.message?.hasPrefix("the file could not be saved: ") == true)
        #expect(record.message?.contains("was removed while the download was written to it") == true)
        #expect(Self.allFiles(in: temporary).isEmpty)
    }

    /// A file much larger than any buffer arrives byte for byte, and the process's resident size
    /// meanwhile grows by far less than the file (held whole, it would grow by more). Another
    /// test in this process may allocate at the same time: one try of two must stay under.
    @Test func aLargeFileIsSavedByteForByteInBoundedMemory() async throws {
        let total = 64 * 1024 * 1024 + 12_345
        var growths: [Int] = []
        for _ in 0..<2 {
            let server = PatternServer(total: total)
            let port = try server.start()
            defer { server.stop() }
            let temporary = try TemporaryDirectory("gm-download")
            let sampler = ResidentSizeSampler()
            let before = ResidentSizeSampler.current()
            let sampling = Task { await sampler.run() }
            let record = await GMRequestPerformer.withPerformer(GMDownloadTests.quick) { performer in
                await performer.download(GMDownload(url: "http://127.0.0.1:\(port)/big.bin"), policy: Self.policy, pageURL: nil,
                                         into: DownloadFolder(directory: temporary.url))
            }
            sampling.cancel()
            _ = await sampling.value
            #expect(record.path == temporary.path("big.bin"))
            #expect(record.bytes == total)
            #expect(try PatternServer.matches(fileAt: temporary.path("big.bin"), total: total))
            #expect(try temporary.entries() == ["big.bin"])
            let growth = sampler.peak - before
            growths.append(growth)
            if growth < total / 2 { return }
        }
        Issue.record("the resident size grew by \(growths) bytes for a \(total)-byte file")
    }
}

/// The largest resident size of this process seen while ``run()`` runs.
final class ResidentSizeSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var largest = 0

    var peak: Int { lock.withLock { largest } }

    /// The resident size now, in bytes (`/proc/self/statm`).
    static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Samples until cancelled.
    func run() async {
        while !Task.isCancelled {
            let size = Self.current()
            lock.withLock { largest = max(largest, size) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A one-connection HTTP server whose body is ``block`` repeated to `total` bytes, made as it is
/// sent (never held whole), and which can hold the body after its first bytes until ``open()``:
/// a download kept half-way for as long as a test needs.
final class PatternServer: @unchecked Sendable {
    /// A block of a prime length, so that its pattern never lines up with the buffers.
    static let block = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) }
    let total: Int
    let heldAfter: Int?
    private let gate = DispatchSemaphore(value: 0)
    private var listener: Int32 = -1

    init(total: Int, heldAfter: Int? = nil) {
        self.total = total
        self.heldAfter = heldAfter
    }

    /// Whether the file at `path` is the body, byte for byte.
    static func matches(fileAt path: String, total: Int) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let whole = Data(block)
        var offset = 0
        while offset < total {
            let expected = whole.prefix(min(block.count, total - offset))
            guard let piece = try handle.read(upToCount: block.count), piece == expected else { return false }
            offset += piece.count
        }
        return try handle.read(upToCount: 1)?.isEmpty ?? true
    }

    /// Listens on a free loopback port and serves one request on a thread; returns the port.
    func start() throws -> UInt16 {
        let bound = try LoopbackSocket.bind(listenBacklog: 4)
        listener = bound.descriptor
        Thread { [self] in serve() }.start()
        return bound.port
    }

    /// Lets the rest of the body go.
    func open() {
        gate.signal()
    }

    /// Closes the listening socket.
    func stop() {
        gate.signal()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(total)\r\nConnection: close\r\n\r\n"
        guard send(Array(head.utf8)[...], on: connection) else { return }
        let block = Self.block
        var offset = 0
        var held = heldAfter != nil
        while offset < total {
            let start = offset % block.count
            var end = min(block.count, start + total - offset)
            if held, let heldAfter { end = min(end, start + heldAfter - offset) }
            guard send(block[start..<end], on: connection) else { return }
            offset += end - start
            if held, let heldAfter, offset >= heldAfter {
                gate.wait()
                held = false
            }
        }
    }

    private func send(_ bytes: ArraySlice<UInt8>, on connection: Int32) -> Bool {
        var sent = bytes.startIndex
        while sent < bytes.endIndex {
            let written = bytes[sent...].withUnsafeBytes { Foundation.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            sent += written
        }
        return true
    }
}
