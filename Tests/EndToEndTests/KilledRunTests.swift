import Foundation
import SystemSupport
import Testing
import TestSupport

/// A `pagescript run` killed with SIGKILL can stop nothing it started; the next `run` stops it.
@Suite(.serialized)
struct KilledRunTests {
    /// The killed run's X server, driver and browser (WebKit's), or driver and browser
    /// (Firefox's), are stopped by the next run (another test's
    /// run may get there first: any run does it, which is the point), and nothing of it is left.
    @Test(arguments: [(engine: "webkit", browser: "MiniBrowser"), (engine: "firefox", browser: "firefox")])
    func theNextRunStopsWhatAKilledRunLeft(engine: String, browser: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Wait</title><p>wait</p>"])
        defer { server.stop() }
        let marker = ProcessProbe.newMarker()
        var environment = ProcessInfo.processInfo.environment
        environment[marker.name] = marker.value
        let killed = try ChildProcess.launch(
            executable: PageScriptBinary.path, arguments: ["run", server.url(), "-e", "new Promise(() => {})", "--timeout", "120", "--engine", engine],
            environment: environment, outputPath: "/dev/null")
        func marked() -> [String] { ProcessProbe.processes(withEnvironment: marker.name, value: marker.value) }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !marked().contains(where: { $0.contains(browser) }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        // The script never ends: the run waits in the page until it is killed.
        try await Task.sleep(for: .milliseconds(500))
        kill(killed.processID, SIGKILL)
        while killed.pollExit() == nil { try await Task.sleep(for: .milliseconds(10)) }
        let left = marked()
        let next = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "document.title", "--engine", engine])
        #expect(next.status == 0, "\(next.standardError)")
        #expect(next.standardOutput.contains("\"Wait\""), "\(next.standardOutput)")
        let survivors = marked()
        for line in survivors {
            if let pid = pid_t(line.split(separator: " ").first ?? "") { kill(pid, SIGKILL) }
        }
        #expect(survivors.isEmpty, "the killed run's processes outlived the next run: \(survivors) (left: \(left))")
        if !left.isEmpty, !next.standardError.contains("left running by a pagescript that was killed") {
            // Another test's run stopped them between the kill and this run: that is the same sweep.
            #expect(marked().isEmpty)
        }
    }
}
