import Foundation
@testable import SystemSupport
import Testing

/// `/proc/PID/stat` read as bytes: the parent of a real child whose command name holds spaces
/// and parentheses (the name is the one field that can), and the tree below this process.
struct ProcessStatTests {
    @Test func readsTheParentPastACommandNameWithParentheses() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "pagescript-stat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The kernel keeps 15 bytes of the name: "a) 1 2 (b) 3 4" stays whole.
        let program = folder.appending(path: "a) 1 2 (b) 3 4").path
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: program)
        let child = try ChildProcess.launch(executable: program, arguments: ["30"])
        defer { child.stop(grace: 0.2) }

        let fields = try #require(ProcessStat.fields(of: child.processID))
        #expect(fields[1] == "\(getpid())", "\(fields.prefix(3))")
        #expect(["R", "S"].contains(fields[0]))
        #expect(ProcessStat.parentID(of: child.processID) == getpid())
        #expect(ProcessTree.descendants(of: getpid()).contains(child.processID))
        #expect(ProcessTree.descendants(of: child.processID).isEmpty)

        child.stop(grace: 0.2)
        #expect(ProcessStat.parentID(of: child.processID) == nil, "a reaped process has no stat line")
        #expect(ProcessStat.fields(of: child.processID) == nil)
    }
}
