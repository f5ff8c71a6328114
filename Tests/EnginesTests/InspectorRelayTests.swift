@testable import Engines
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

    /// With an automation channel, the relay reads both directions as whole frames, on real
    /// sockets with a peer speaking the browser's side of the protocol: the driver's `Setup`
    /// (written in two pieces) reaches the browser whole and tells the channel its connection and
    /// target; a command PageScript sends arrives as one frame on those IDs; of an event and the
    /// command's reply written at once, the reply goes to PageScript and the event on to the
    /// driver, as do the browser's answers to the driver; a reply that comes too late is dropped;
    /// a browser that goes fails what waits.
    @Test func carriesPageScriptsCommandsOnTheDriversConnection() async throws {
        let targetPort = try FreePort.next()
        let listener = try LoopbackSocket.bind(port: targetPort, listenBacklog: 4)
        defer { Glibc.close(listener.descriptor) }
        let automation = WebKitAutomationChannel()
        let relay = try await InspectorRelay.start(targetPort: targetPort, connectTimeout: 10, automation: automation)
        let driver = try BlockingSocket.connect(port: relay.port)
        defer { driver.close() }
        let browser = try BlockingSocket.accept(on: listener.descriptor)
        #expect(!automation.isAttached)

        let setup = Self.frame("Setup", connection: 7, target: 9)
        try driver.send(bytes: Array(setup.prefix(10)))
        try await Task.sleep(nanoseconds: 50_000_000)
        try driver.send(bytes: Array(setup.dropFirst(10)))
        #expect(try browser.receiveBytes(count: setup.count) == setup)
        for _ in 0..<100 where !automation.isAttached { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(automation.isAttached)

        let reply = automation.send("isShowingJavaScriptDialog", parameters: "{\"browsingContextHandle\":\"page-1\"}", timeout: 5)
        let command = "{\"id\":\(WebKitAutomationChannel.firstID),\"method\":\"Automation.isShowingJavaScriptDialog\",\"params\":{\"browsingContextHandle\":\"page-1\"}}"
        let expected = Self.frame("SendMessageToBackend", connection: 7, target: 9, message: command)
        #expect(try browser.receiveBytes(count: expected.count) == expected)

        let event = Self.frame("SendMessageToFrontend", connection: 7, target: 9, message: "{\"method\":\"Automation.browsingContextCleared\"}")
        let answer = Self.frame("SendMessageToFrontend", connection: 7, target: 9,
                                message: "{\"result\":{\"result\":false},\"id\":\(WebKitAutomationChannel.firstID)}")
        try browser.send(bytes: event + answer)
        #expect(try await reply.get() == ["result": false])
        let driversAnswer = Self.frame("SendMessageToFrontend", connection: 7, target: 9, message: "{\"result\":{},\"id\":3}")
        try browser.send(bytes: driversAnswer)
        #expect(try driver.receiveBytes(count: event.count + driversAnswer.count) == event + driversAnswer)

        // A reply that comes after PageScript stopped waiting is not the driver's either.
        let expiring = automation.send("evaluateJavaScriptFunction", parameters: "{}", timeout: 0.1)
        let expiringFrame = try browser.receiveBytes(count: 4)
        _ = try browser.receiveBytes(count: 1 + Int(expiringFrame.reduce(0) { $0 << 8 | UInt32($1) }))
        await #expect(throws: WebKitAutomationChannel.Failure.timedOut) { _ = try await expiring.get() }
        let lateAnswer = Self.frame("SendMessageToFrontend", connection: 7, target: 9,
                                    message: "{\"result\":{\"result\":\"1\"},\"id\":\(WebKitAutomationChannel.firstID + 1)}")
        try browser.send(bytes: lateAnswer + driversAnswer)
        #expect(try driver.receiveBytes(count: driversAnswer.count) == driversAnswer)

        let waiting = automation.send("evaluateJavaScriptFunction", parameters: "{}", timeout: 5)
        _ = try browser.receiveBytes(count: 5)
        browser.close()
        await #expect(throws: WebKitAutomationChannel.Failure.closed) { _ = try await waiting.get() }
        #expect(!automation.isAttached)
        await relay.stop()
    }

    /// A frame as the browser and the driver write them: length, flag, name, NUL, the two IDs
    /// little-endian, and the message with its NUL when there is one.
    private static func frame(_ name: String, connection: UInt64, target: UInt64, message: String? = nil) -> [UInt8] {
        var body = Array(name.utf8) + [0]
        body += withUnsafeBytes(of: connection.littleEndian, Array.init) + withUnsafeBytes(of: target.littleEndian, Array.init)
        if let message { body += Array(message.utf8) + [0] }
        return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + [1] + body
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
        let browser = try await WebKitBrowser.start(executable: miniBrowser, arguments: WebKitLauncher.browserArguments, environment: environment,
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
        String(decoding: try receiveBytes(count: count), as: UTF8.self)
    }

    func send(bytes: [UInt8]) throws {
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketFailure(operation: "send", code: errno)
        }
    }

    /// Up to `count` bytes, fewer when the other end closes.
    func receiveBytes(count: Int) throws -> [UInt8] {
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
        return received
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
