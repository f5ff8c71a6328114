import Foundation
import TestSupport
import Testing
import WebSocket

/// The WebSocket client against a real WebSocket server on loopback (SwiftNIO's server side),
/// for the frames Chromium never sends: fragments, pings, a close handshake the server starts.
@Suite(.serialized)
struct WebSocketClientTests {
    /// A connection whose messages and end arrive on streams.
    struct Connection {
        let client: WebSocketClient
        let messages: AsyncStream<WebSocketMessage>
        let closures: AsyncStream<WebSocketClosure>
    }

    func connect(
        to url: URL, configuration: WebSocketClient.Configuration = WebSocketClient.Configuration()
    ) async throws -> Connection {
        let (messages, messageSink) = AsyncStream.makeStream(of: WebSocketMessage.self)
        let (closures, closureSink) = AsyncStream.makeStream(of: WebSocketClosure.self)
        let client = try await WebSocketClient.connect(
            to: url, configuration: configuration,
            onMessage: { messageSink.yield($0) },
            onClose: { closureSink.yield($0); closureSink.finish(); messageSink.finish() })
        return Connection(client: client, messages: messages, closures: closures)
    }

    @Test func textRoundTripsAndEveryClientFrameIsMasked() async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        try connection.client.send(text: "echo:héllo, 世界 🌍")
        let reply = try await first(of: connection.messages, "the echo")
        #expect(reply == WebSocketMessage(kind: .text, bytes: Array("héllo, 世界 🌍".utf8)))
        await connection.client.close()
        #expect(try await first(of: connection.closures, "the end") == .closedLocally)
        try await eventually("the server saw the close") { server.observations.contains("close:1000") }
        #expect(!server.observations.contains("unmasked frame"))
        await server.stop()
    }

    @Test(arguments: [2, 7, 64])
    func fragmentedMessagesArriveWholeAndAPingBetweenFragmentsIsAnswered(fragments: Int) async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        let text = (0..<500).map { "\($0 % 10)" }.joined() + "é"
        try connection.client.send(text: "fragments:\(fragments):\(text)")
        let reply = try await first(of: connection.messages, "the fragmented message")
        #expect(reply.text == text)
        // The client answered the ping the server sent between the first two fragments.
        try await within(10, "the pong") {
            while !server.observations.contains("pong:between fragments") { try await Task.sleep(nanoseconds: 10_000_000) }
        }
        await connection.client.close()
        await server.stop()
    }

    @Test func aPingIsAnsweredAndAnUnansweredPingTimesOut() async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        try await connection.client.ping(timeout: 10)
        try connection.client.send(text: "ignore-pings")
        _ = try await first(of: connection.messages, "the server's acknowledgement")
        await #expect(throws: WebSocketError.timedOut(operation: "ping", seconds: 0.3)) {
            try await connection.client.ping(timeout: 0.3)
        }
        await connection.client.close()
        await server.stop()
    }

    @Test func aCloseHandshakeStartedByThePeerIsAnsweredWithItsCode() async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        try connection.client.send(text: "close:4001:going away now")
        let closure = try await first(of: connection.closures, "the peer's close")
        #expect(closure == .closedByPeer(code: 4001, reason: "going away now"))
        // The client's echo reaches the server on the server's own event loop, which may be
        // behind the client's end of the connection on a loaded machine.
        try await eventually("the server saw the echoed close") { server.observations.contains("close:4001") }
        #expect(connection.client.closure == closure)
        #expect(throws: WebSocketError.closed(closure)) { try connection.client.send(text: "echo:late") }
        await server.stop()
    }

    @Test func aDroppedConnectionIsReportedAtOnceAndSendingFails() async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        try connection.client.send(text: "drop")
        let closure = try await first(of: connection.closures, "the lost connection")
        guard case .connectionLost = closure else {
            Issue.record("expected a lost connection, got \(closure)")
            return
        }
        #expect(throws: WebSocketError.closed(closure)) { try connection.client.send(text: "echo:late") }
        await #expect(throws: WebSocketError.closed(closure)) { try await connection.client.ping() }
        await connection.client.close()
        await server.stop()
    }

    @Test(arguments: ["big:5000", "bigfragments:300000"])
    func aMessageOverTheLimitClosesWith1009(command: String) async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url(), configuration: .init(maximumMessageSize: 4096))
        try connection.client.send(text: command)
        let closure = try await first(of: connection.closures, "the end")
        #expect(closure == .messageTooLarge(limit: 4096))
        await server.stop()
    }

    @Test func aLargeMessageInOneFrameArrivesWhole() async throws {
        let server = try await ScriptedWebSocketServer()
        let connection = try await connect(to: server.url())
        try connection.client.send(text: "big:16000000")
        let reply = try await first(of: connection.messages, "the large message", where: { _ in true })
        #expect(reply.bytes.count == 16_000_000)
        #expect(reply.bytes.allSatisfy { $0 == UInt8(ascii: "b") })
        await connection.client.close()
        await server.stop()
    }

    @Test func aRefusedUpgradeReportsTheServersAnswer() async throws {
        let server = try await ScriptedWebSocketServer()
        let url = server.url("/refuse")
        await #expect(throws: WebSocketError.handshakeRefused(url: url.absoluteString, status: 403, body: "refused by the test server")) {
            _ = try await connect(to: url)
        }
        await server.stop()
    }

    @Test func aClosedPortIsUnreachableAndASilentOneTimesOut() async throws {
        await #expect {
            _ = try await connect(to: URL(string: "ws://127.0.0.1:9/")!)
        } throws: { error in
            if case .unreachable? = error as? WebSocketError { return true }
            return false
        }
        let silent = try SilentListener()
        defer { silent.stop() }
        let url = URL(string: "ws://127.0.0.1:\(silent.port)/")!
        await #expect(throws: WebSocketError.timedOut(operation: "the WebSocket handshake with \(url.absoluteString)", seconds: 0.5)) {
            _ = try await connect(to: url, configuration: .init(connectTimeout: 0.5))
        }
    }

    @Test(arguments: ["http://127.0.0.1:1/", "wss://127.0.0.1:1/", "ws:///path"])
    func onlyPlainWebSocketURLsAreAccepted(text: String) async throws {
        let url = try #require(URL(string: text))
        await #expect(throws: WebSocketError.invalidURL(url.absoluteString)) {
            _ = try await connect(to: url)
        }
    }
}
