import Foundation
import Testing
@testable import SystemSupport

/// Free loopback ports, for servers other programs start.
struct FreePortTests {
    @Test func aPortForAnotherProgramIsFreeAndBelowTheEphemeralRange() throws {
        let start = FreePort.ephemeralRangeStart()
        for _ in 0..<20 {
            let port = try FreePort.belowEphemeralRange()
            if start > 12_000 { #expect(port < start, "\(port) is in the ephemeral range from \(start)") }
            // Free: it can be bound without SO_REUSEADDR.
            let socket = try LoopbackSocket.bind(port: port, reusingAddress: false)
            close(socket.descriptor)
        }
    }

    @Test func theEphemeralRangeIsReadFromTheKernel() throws {
        let text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        #expect(String(FreePort.ephemeralRangeStart()) == text.split(whereSeparator: \.isWhitespace).first.map(String.init))
    }
}
