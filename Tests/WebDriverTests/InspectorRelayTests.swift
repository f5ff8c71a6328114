import Foundation
import SystemSupport
import Testing
@testable import WebDriver

/// The relay between WebKitWebDriver and the browser, on real loopback sockets, and a real WebKit
/// session through it.
@Suite("InspectorRelay")
struct InspectorRelayTests {
    @Test func relaysBothWaysOnceATargetThatStartsLateListens() async throws {
        let targetPort = try FreePort.next()
        let relay = try await InspectorRelay.start(targetPort: targetPort, connectTimeout: 10)
        let client = try BlockingSocket.connect(port: relay.port)
        defer { client.close() }
        // Sent before anything listens on the target port: held by the relay, not lost.
        try client.send("Automation.navigate")
        try await Task.sleep(nanoseconds: 300_000_000)
        let listener = try LoopbackSocket.bind(port: targetPort, listenBacklog: 4)
        defer { Glibc.close(listener.descriptor) }
        let target = try BlockingSocket.accept(on: listener.descriptor)
        #expect(try target.receive(count: 19) == "Automation.navigate")
        try target.send("event")
        try target.send("reply")
        #expect(try client.receive(count: 10) == "eventreply")
        target.close()
        // The browser's end went away: so does the driver's.
        #expect(try client.receive(count: 1) == "")
        await relay.stop()
        #expect(TCPProbe.failureReason(host: "127.0.0.1", port: relay.port, timeout: 1) != nil)
    }

    @Test func closesTheDriversConnectionWhenTheBrowserNeverListens() async throws {
        let targetPort = try FreePort.next()
        let relay = try await InspectorRelay.start(targetPort: targetPort, connectTimeout: 0.3)
        defer { Task { await relay.stop() } }
        let client = try BlockingSocket.connect(port: relay.port)
        defer { client.close() }
        #expect(try client.receive(count: 1) == "")
    }

    @Test func closesTheDriversConnectionAtOnceWhenTheBrowserIsGone() async throws {
        let targetPort = try FreePort.next()
        // The browser "exited": the connection is not kept waiting for the 60 s timeout.
        let relay = try await InspectorRelay.start(targetPort: targetPort, connectTimeout: 60) { false }
        defer { Task { await relay.stop() } }
        let client = try BlockingSocket.connect(port: relay.port)
        defer { client.close() }
        #expect(try client.receive(count: 1) == "")
    }

    @Test func webKitRunsBehindTheRelayAndADeadBrowserEndsTheSession() async throws {
        let running = try await BrowserEngine.start(.webkit)
        let browser = try #require(running.webKitBrowser, "WebKitWebDriver names the MiniBrowser it would start")
        #expect(running.processes.contains { $0 === browser.process })
        let session = try await running.newSession(timeout: 30)
        #expect(try await session.executeScript("return 6 * 7") == 42)
        kill(browser.process.processID, SIGKILL)
        await #expect(throws: WebDriverError.self) {
            _ = try await session.executeScript("return 1", timeout: 20)
        }
        await running.stop()
        #expect(running.processes.allSatisfy { !$0.isRunning })
    }
}

/// A blocking loopback TCP socket with a five-second receive timeout, for talking to the relay.
private struct BlockingSocket {
    let descriptor: Int32

    static func connect(port: UInt16) throws -> BlockingSocket {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackSocket.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw SocketFailure(operation: "connect", code: errno)
        }
        return BlockingSocket(descriptor: descriptor).withReceiveTimeout()
    }

    static func accept(on listener: Int32) throws -> BlockingSocket {
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { throw SocketFailure(operation: "accept", code: errno) }
        return BlockingSocket(descriptor: descriptor).withReceiveTimeout()
    }

    private func withReceiveTimeout() -> BlockingSocket {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return self
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketFailure(operation: "send", code: errno)
        }
    }

    /// Up to `count` bytes, fewer when the other end closes ("" at once when it has closed).
    func receive(count: Int) throws -> String {
        var received: [UInt8] = []
        while received.count < count {
            var buffer = [UInt8](repeating: 0, count: count - received.count)
            let read = recv(descriptor, &buffer, buffer.count, 0)
            if read == 0 { break }
            if read < 0 {
                if errno == ECONNRESET { break }
                throw SocketFailure(operation: "recv", code: errno)
            }
            received += buffer[0..<read]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        Glibc.close(descriptor)
    }
}

private struct SocketFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32
    var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}
