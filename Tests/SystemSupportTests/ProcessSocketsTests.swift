import CSystemSupport
import Foundation
@testable import SystemSupport
import Testing

/// Another process's TCP sockets, on a real child (Python holding a listening socket and a
/// connection to it).
@Suite struct ProcessSocketsTests {
    @Test func aChildsListenerIsSeenAndItsSocketsGetNoDelay() throws {
        let port = try FreePort.belowEphemeralRange()
        #expect(!ProcessSockets.isListening(onLoopbackPort: port))
        let script = """
            import socket, sys, time
            server = socket.socket()
            server.bind(("127.0.0.1", \(port)))
            server.listen()
            client = socket.create_connection(("127.0.0.1", \(port)))
            accepted, _ = server.accept()
            print("ready", flush=True)
            time.sleep(30)
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-sockets-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out").path
        let child = try ChildProcess.launch(executable: try #require(ExecutableLocator.find("python3")), arguments: ["-c", script], outputPath: output)
        defer { child.stop(grace: 0) }
        let deadline = Date().addingTimeInterval(20)
        while !((try? String(contentsOfFile: output, encoding: .utf8))?.contains("ready") ?? false), Date() < deadline, child.isRunning {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(ProcessSockets.isListening(onLoopbackPort: port))
        try #require(ProcessSockets.canReach(child.processID), "this machine lets a parent reach its child's descriptors")
        #expect(try ProcessSockets.noDelaySettings(inProcess: child.processID) == [false, false, false])
        #expect(try ProcessSockets.setNoDelay(inProcess: child.processID) == 3)
        #expect(try ProcessSockets.noDelaySettings(inProcess: child.processID) == [true, true, true])
    }

    /// Every listener is seen, by the kernel's socket diagnostics and by `/proc/net/tcp` (read to
    /// its end, however many sockets come before the listener), and a port nothing listens on is
    /// not, by either.
    @Test func aListenerPastTheTablesFirstPageIsSeen() throws {
        let others = try (0..<60).map { _ in try LoopbackSocket.bind(listenBacklog: 1) }
        defer { others.forEach { close($0.descriptor) } }
        let last = try LoopbackSocket.bind(listenBacklog: 1)
        defer { close(last.descriptor) }
        #expect(ProcessSockets.isListening(onLoopbackPort: last.port))
        #expect(others.allSatisfy { ProcessSockets.isListening(onLoopbackPort: $0.port) })
        #expect(ProcessSockets.isListeningInTable(onLoopbackPort: last.port))
        #expect(others.allSatisfy { ProcessSockets.isListeningInTable(onLoopbackPort: $0.port) })
        // This machine's kernel answers the diagnostics query (the table is the fallback).
        #expect(pagescript_tcp_listening_on_loopback(last.port) == 1)
        let free = try FreePort.belowEphemeralRange()
        #expect(!ProcessSockets.isListening(onLoopbackPort: free))
        #expect(!ProcessSockets.isListeningInTable(onLoopbackPort: free))
        #expect(pagescript_tcp_listening_on_loopback(free) == 0)
    }

    @Test func aProcessThatIsGoneCannotBeReached() throws {
        let gone = try ChildProcess.launch(executable: "/bin/true", arguments: [])
        while gone.pollExit() == nil { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!ProcessSockets.canReach(gone.processID))
        #expect(throws: ProcessSockets.Failure.self) { try ProcessSockets.setNoDelay(inProcess: gone.processID) }
    }
}
