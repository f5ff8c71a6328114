import Foundation
import Testing
@testable import SystemSupport

/// A command that is ending stops every child it started, and starts no more: a child started
/// while the stop gathered the others (a browser retried just as SIGTERM came) would outlive it.
struct ChildProcessRegistryTests {
    @Test func aStoppedRegistryStopsItsChildrenAndStartsNoMore() throws {
        let registry = ChildProcessRegistry()
        let child = try ChildProcess.launch(executable: "/bin/sleep", arguments: ["30"], environment: nil, outputPath: nil,
                                            inheritedDescriptors: [], registry: registry)
        #expect(registry.livePIDs == [child.processID])
        registry.stopAll(grace: 0.2)
        #expect(!child.isRunning)
        #expect(throws: ChildProcessError.self) {
            try ChildProcess.launch(executable: "/bin/sleep", arguments: ["30"], environment: nil, outputPath: nil,
                                    inheritedDescriptors: [], registry: registry)
        }
        #expect(registry.livePIDs.isEmpty)
    }
}
