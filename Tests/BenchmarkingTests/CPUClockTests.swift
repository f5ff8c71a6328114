import Foundation
import Testing
@testable import Benchmarking

/// The processor time a run cost counts the processes it started, once they have ended. (Only a
/// lower bound can be checked: the tests running beside it in this process count too.)
struct CPUClockTests {
    @Test func theTimeOfAProcessTheRunStartedIsCounted() throws {
        let clock = CPUClock.start()
        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/bin/sh")
        busy.arguments = ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"]
        try busy.run()
        busy.waitUntilExit()
        #expect(clock.secondsUsed() > 0.1)
    }
}
