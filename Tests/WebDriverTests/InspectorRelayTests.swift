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

    /// The relay end to end, where the direct link would be chosen otherwise: a real MiniBrowser
    /// behind it and a real WebKitWebDriver in front.
    @Test func aBrowserBehindTheRelayServesADriversSession() async throws {
        let display = try XvfbDisplay.start(executable: try #require(ExecutableLocator.find("Xvfb")), timeout: 10)
        defer { display.process.stop(grace: 0) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.name
        let driverPath = try #require(ExecutableLocator.find("WebKitWebDriver"))
        let miniBrowser = try #require(WebKitBrowser.miniBrowser(startedBy: driverPath))
        let browser = try await WebKitBrowser.start(executable: miniBrowser, arguments: BrowserEngine.webKitArguments, environment: environment,
                                                    outputPath: nil, timeout: 30, allowDirectLink: false)
        guard case .relayed = browser.link else {
            Issue.record("the relay was not used")
            await browser.stop()
            return
        }
        let port = try FreePort.next()
        let driver = try ChildProcess.launch(executable: driverPath, arguments: ["--port=\(port)", "--host=127.0.0.1", browser.driverArgument],
                                             environment: environment)
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(port)")!, connectTimeout: 2)
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? await client.status(timeout: 1))?.ready ?? false
            if !ready { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        #expect(ready)
        let session = try await client.newSession(capabilities: [:], timeout: 30)
        #expect(try await session.executeScript("return 6 * 7") == 42)
        await session.delete()
        driver.stop(grace: 1)
        await client.shutdown()
        await browser.stop()
        #expect(!browser.process.isRunning)
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
