@testable import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import WebDriver

/// The client against real drivers and real sockets.
@Suite(.serialized)
struct BrowserEngineTests {
    @Test func aSilentEndpointTimesOutInsteadOfHanging() async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(silent.port)")!)
        let started = Date()
        await #expect(throws: WebDriverError.requestTimedOut(command: "new session", seconds: 1)) {
            _ = try await client.newSession(capabilities: [:], timeout: 1)
        }
        // The typed timeout above is the check; this only guards against a hang, with room for a
        // machine loaded by the rest of the suite (5.7 s has been seen for this 1 s timeout).
        #expect(Date().timeIntervalSince(started) < 30)
        await client.shutdown()
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:9")!, connectTimeout: 1)
        do {
            _ = try await client.status(timeout: 2)
            Issue.record("status succeeded on a closed port")
        } catch {
            if case .unreachable = error {} else { Issue.record("expected unreachable, got \(error)") }
        }
        await client.shutdown()
    }

    /// The throwaway Chromium profile sits in memory when the machine has room there (so that
    /// removing it does not cost a cold run hundreds of milliseconds) and is gone after stop();
    /// so are the temporary folders Chromium makes for itself, which it keeps in a folder of
    /// PageScript's (a stopped Chromium used to leave one or two in `/tmp` every run).
    @Test func theThrowawayChromiumProfileIsInMemoryWhereThereIsRoomAndRemovedAtStop() async throws {
        let running = try await BrowserEngine.start(.chromium)
        let session = try await running.newSession(timeout: 30)
        let profile = session.capabilities["chrome"]?["userDataDir"]?.stringValue ?? ""
        let driver = try #require(running.driverProcess)
        let browsers = ProcessTree.descendants(of: driver.processID).filter {
            ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").contains("--user-data-dir=\(profile)")
        }
        let temporaries = browsers.compactMap { pid -> String? in
            let environment = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
            return environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                .first { $0.hasPrefix("TMPDIR=") }.map { String($0.dropFirst("TMPDIR=".count)) }
        }
        let temporary = try #require(temporaries.first, "the browser has a TMPDIR of PageScript's")
        #expect(!browsers.isEmpty && temporaries.allSatisfy { $0 == temporary })
        #expect(temporary.hasPrefix(ThrowawayProfileFolder.path(named: BrowserEngine.browserTemporaryPrefix)), "\(temporary)")
        let made = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        #expect(made.contains { $0.hasPrefix("org.chromium.Chromium.") }, "Chromium keeps its temporary folders there: \(made)")
        await session.delete()
        await running.stop()
        let expected = ThrowawayProfileFolder.path(named: "")
        #expect(profile.hasPrefix(expected + "pagescript-chromium-profile-"), "\(profile) is not in \(expected)")
        #expect(!FileManager.default.fileExists(atPath: profile), "the profile is removed")
        #expect(!FileManager.default.fileExists(atPath: temporary), "the browser's temporary folder is removed")
        var memory = statvfs()
        if access("/dev/shm", W_OK) == 0, statvfs("/dev/shm", &memory) == 0,
           UInt64(memory.f_bavail) * UInt64(memory.f_frsize) >= ThrowawayProfileFolder.minimumFreeMemoryBytes {
            #expect(expected == "/dev/shm/", "this machine has room in memory")
        }
    }

    /// A profile a killed PageScript left behind (its process is gone) is removed when the next
    /// Chromium starts; one whose process still runs is kept. (A finished child's id stands for
    /// a process that is gone: a real SIGKILL of a run is in the terminal tests.)
    @Test func profilesLeftByProcessesThatAreGoneAreRemoved() throws {
        let prefix = "pagescript-test-profile-\(UInt32.random(in: 0...UInt32.max))-"
        let gone = try ChildProcess.launch(executable: "/bin/true", arguments: [])
        while gone.pollExit() == nil { Thread.sleep(forTimeInterval: 0.01) }
        let abandoned = ThrowawayProfileFolder.path(named: "\(prefix)\(gone.processID)-1")
        let live = ThrowawayProfileFolder.path(named: "\(prefix)\(getpid())-2")
        for folder in [abandoned, live] {
            try FileManager.default.createDirectory(atPath: folder + "/Default", withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: live) }
        ThrowawayProfileFolder.removeAbandoned(prefixes: ["pagescript-unrelated-", prefix])
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test(arguments: [Engine.webkit, Engine.chromium])
    func protocolErrorsAreTyped(engine: Engine) async throws {
        let running = try await BrowserEngine.start(engine)
        let session = try await running.newSession(timeout: 30)
        do {
            let value = try await session.executeScript("return [1, 'two', {three: arguments[0]}]", arguments: [3])
            #expect(value == [1, "two", ["three": 3]])
            await #expect {
                _ = try await session.executeScript("throw new Error('boom')")
            } throws: { error in
                (error as? WebDriverError)?.code == .javascriptError
            }
            await #expect {
                _ = try await session.command(.GET, "/no-such-endpoint", body: nil, name: "nonsense")
            } throws: { error in
                guard let error = error as? WebDriverError else { return false }
                return [WebDriverErrorCode.unknownCommand, .unknownMethod].contains(error.code)
            }
            #expect(!(try await session.currentURL()).isEmpty)
        } catch {
            Issue.record("\(error)")
        }
        await session.delete()
        await #expect {
            _ = try await session.title()
        } throws: { error in
            (error as? WebDriverError)?.code == .invalidSessionID
        }
        await running.stop()
        #expect(running.processes.allSatisfy { !$0.isRunning })
    }

    @Test func missingProgramsAreNamed() async {
        await #expect(throws: EngineError.missing(engine: .chromium, programs: ["chromedriver", "chromium"])) {
            _ = try await BrowserEngine.start(.chromium, path: "/nonexistent")
        }
    }

    /// A driver that exits at start (a broken install: here `false` stands in for `chromedriver`,
    /// next to the real `chromium`) fails the start with the driver's exit, and the engine's HTTP
    /// client is shut down on that path: in debug builds AsyncHTTPClient traps when a client is
    /// released running, which used to kill the whole test process here.
    @Test func aDriverThatExitsAtStartIsReportedAndReleased() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-broken-driver-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("chromedriver").path, withDestinationPath: "/bin/false")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("chromium").path, withDestinationPath: "/usr/bin/chromium")
        for _ in 0..<3 {
            await #expect {
                _ = try await BrowserEngine.start(.chromium, timeout: 10, path: folder.path)
            } throws: { error in
                guard case .failedToStart(.chromium, let reason)? = error as? EngineError else { return false }
                return reason.contains("the driver exited")
            }
        }
    }

    @Test func inventoryFindsInstalledEngines() {
        let webkit = EngineInventory.inspect(.webkit)
        #expect(webkit.isInstalled)
        #expect(webkit.version?.isEmpty == false)
        let none = EngineInventory.inspect(.chromium, path: "/nonexistent")
        #expect(!none.isInstalled)
        #expect(none.summaryLine.contains("not installed"))
    }
}
