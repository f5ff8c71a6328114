import Foundation
import SystemSupport
import Testing
@testable import WebDriver

/// The lean HTTP client against a real loopback endpoint that keeps connections open, counts
/// them, closes them when told, and echoes what it was sent.
@Suite(.serialized)
struct KeepAliveHTTPClientTests {
    @Test func requestsShareOneConnectionAndCarryThePathAndTheCredentials() async throws {
        let endpoint = try EchoingEndpoint()
        defer { endpoint.stop() }
        let client = WebDriverClient(endpoint: URL(string: "http://ada:s%3Acret@127.0.0.1:\(endpoint.port)/wd/hub/")!)
        for _ in 0..<5 {
            let status = try await client.status()
            #expect(status.ready)
            #expect(status.message == "GET /wd/hub/status Basic " + Data("ada:s:cret".utf8).base64EncodedString())
        }
        let posted = try await client.send(.POST, path: "/session/x/execute/sync", body: ["script": "return 1"], command: "execute script")
        #expect(posted["message"]?.stringValue?.hasPrefix("POST /wd/hub/session/x/execute/sync") == true)
        #expect(posted["body"]?.stringValue == #"{"script":"return 1"}"#)
        #expect(endpoint.connections == 1, "keep-alive: every request on the first connection")
        await client.shutdown()
    }

    @Test func aConnectionTheServerClosedWhileIdleIsReplacedWithoutAnError() async throws {
        let endpoint = try EchoingEndpoint(closesAfterEachReply: true)
        defer { endpoint.stop() }
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(endpoint.port)")!)
        for _ in 0..<4 {
            #expect(try await client.status().ready)
            // Let the server's close arrive, so that the next request finds the connection dead.
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(endpoint.connections == 4)
        await client.shutdown()
    }

    /// The race a keep-alive client must survive: the server gives up on a connection just as a
    /// request goes out on it (here: it closes, without a word, on the second request of each
    /// connection).
    @Test func aRequestOnAConnectionTheServerDroppedIsSentAgainOnANewOne() async throws {
        let endpoint = try EchoingEndpoint(dropsSecondRequest: true)
        defer { endpoint.stop() }
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(endpoint.port)")!)
        for _ in 0..<3 {
            #expect(try await client.status().ready)
        }
        #expect(endpoint.connections == 3)
        await client.shutdown()
    }

    @Test func aServerThatDiesMidReplyIsUnreachableNotRetried() async throws {
        let endpoint = try EchoingEndpoint(diesMidReply: true)
        defer { endpoint.stop() }
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(endpoint.port)")!)
        await #expect {
            _ = try await client.status()
        } throws: { error in
            if case .unreachable? = error as? WebDriverError { return true }
            return false
        }
        #expect(endpoint.connections == 1, "a reply that started is not asked for again")
        await client.shutdown()
    }
}

/// A WebDriver-shaped endpoint on 127.0.0.1 that answers every request with
/// `{"value": {"ready": true, "message": "<method> <path> <Authorization>", "body": "<body>"}}`,
/// keeping the connection open (unless told otherwise) for the next request.
final class EchoingEndpoint: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var accepted = 0
    private let closesAfterEachReply: Bool
    private let diesMidReply: Bool
    private let dropsSecondRequest: Bool

    init(closesAfterEachReply: Bool = false, diesMidReply: Bool = false, dropsSecondRequest: Bool = false) throws {
        let bound = try LoopbackSocket.bind(listenBacklog: 16)
        listener = bound.descriptor
        port = bound.port
        self.closesAfterEachReply = closesAfterEachReply
        self.diesMidReply = diesMidReply
        self.dropsSecondRequest = dropsSecondRequest
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                lock.withLock { accepted += 1 }
                Thread { [self] in
                    serve(connection)
                    close(connection)
                }.start()
            }
        }.start()
    }

    var connections: Int { lock.withLock { accepted } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        var served = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else {
                let count = read(connection, &chunk, chunk.count)
                if count <= 0 { return }
                pending += chunk[0..<count]
                continue
            }
            let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let fields = lines.dropFirst().reduce(into: [String: String]()) { fields, line in
                guard let colon = line.firstIndex(of: ":") else { return }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(fields["content-length"] ?? "0") ?? 0
            while pending.count < end.upperBound + length {
                let count = read(connection, &chunk, chunk.count)
                if count <= 0 { return }
                pending += chunk[0..<count]
            }
            if dropsSecondRequest, served == 1 { return }
            served += 1
            let body = String(decoding: pending[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
            pending.removeFirst(end.upperBound + length)
            let requestLine = lines[0].split(separator: " ")
            let message = "\(requestLine[0]) \(requestLine[1]) \(fields["authorization"] ?? "")"
            let reply: JSONValue = ["value": ["ready": true, "message": .string(message), "body": .string(body)]]
            let bytes = Array(reply.serialized.utf8)
            let header = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8)
            let whole = diesMidReply ? header + bytes.prefix(3) : header + bytes
            _ = whole.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if closesAfterEachReply || diesMidReply { return }
        }
    }
}
