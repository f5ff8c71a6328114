import Foundation
import SystemSupport
import Testing

struct ChildProcessTests {
    /// A child that starts a grandchild in a new session (as chromedriver starts Chromium):
    /// stopping the child must stop the grandchild too.
    @Test func stopReachesProcessesOutsideTheGroup() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-tree-\(UUID().uuidString)").path
        defer { unlink(pidFile) }
        let child = try ChildProcess.launch(
            executable: "/bin/sh",
            arguments: ["-c", "setsid sleep 300 & echo $! > \(pidFile); sleep 300"])
        var grandchild: pid_t?
        for _ in 0..<200 where grandchild == nil {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                grandchild = pid
            } else {
                usleep(10_000)
            }
        }
        let grandchildID = try #require(grandchild)
        usleep(50_000)
        #expect(kill(grandchildID, 0) == 0, "the grandchild should be running")
        #expect(ChildProcessRegistry.shared.livePIDs.contains(child.processID))
        child.stop(grace: 0.5)
        #expect(!child.isRunning)
        #expect(!ChildProcessRegistry.shared.livePIDs.contains(child.processID))
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(grandchildID, 0) != 0 || processIsZombie(grandchildID)
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the grandchild in its own session survived")
    }

    @Test func launchFailureIsReported() {
        #expect(throws: ChildProcessError.self) {
            _ = try ChildProcess.launch(executable: "/nonexistent/program", arguments: [])
        }
    }

    @Test func commandOutputCollectsWhatAProgramPrints() {
        #expect(CommandOutput.run("/bin/echo", ["hello"]) == "hello")
        #expect(CommandOutput.run("/bin/sleep", ["10"], timeout: 0.2) == nil)
    }

    @Test func commandOutputCanLeaveStandardErrorOut() {
        let both = CommandOutput.run("/bin/sh", ["-c", "echo complaint >&2; echo answer"])
        #expect(both?.contains("complaint") == true)
        #expect(both?.contains("answer") == true)
        #expect(CommandOutput.run("/bin/sh", ["-c", "echo complaint >&2; echo answer"], includingStandardError: false) == "answer")
    }

    @Test func findsProgramsOnAPath() {
        #expect(ExecutableLocator.find("sh", path: "/nonexistent:/bin") == "/bin/sh")
        #expect(ExecutableLocator.find("sh", path: "/nonexistent") == nil)
    }

    @Test func probeTellsARefusalAtOnce() throws {
        let port = try FreePort.next()
        let reason = TCPProbe.failureReason(host: "127.0.0.1", port: port, timeout: 2)
        #expect(reason?.lowercased().contains("refused") == true)
    }
}

private func processIsZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
}
