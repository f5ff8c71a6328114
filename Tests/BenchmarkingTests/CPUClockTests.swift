import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The processor time a run cost counts the processes it started, once they have ended. (Only a
/// lower bound can be checked: the tests running beside it in this process count too.)
struct CPUClockTests {
    @Test func theTimeOfAProcessTheRunStartedIsCounted() throws {
        // The other tests' processes are left alone.
        let clock = CPUClock.start(keeping: Set(ProcessTree.descendants(of: getpid())), settle: 1)
        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/bin/sh")
        busy.arguments = ["-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"]
        try busy.run()
        busy.waitUntilExit()
        #expect(clock.secondsUsed() > 0.1)
    }
}
