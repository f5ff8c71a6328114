import Engines
import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// The bare-protocol floor runs for real on each engine: it answers the script's value, reports
/// every phase of a cold run, and leaves none of the processes it started (the driver, the X
/// server, the browser and its helpers) running.
@Suite(.serialized)
struct ProtocolFloorTests {
    static let phaseNames = ["driver ready", "new session", "navigation", "script", "delete session", "stop"]

    private static func page() throws -> (folder: URL, url: String) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pagescript-floor-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page = folder.appendingPathComponent("page.html")
        try Data("<!doctype html><title>Floor</title><p>floor</p>\n".utf8).write(to: page)
        return (folder, page.absoluteString)
    }

    /// Whether a process has ended (and been reaped), waiting a little for an orphan that
    /// init has yet to reap.
    private static func hasEnded(_ processID: Int32) async -> Bool {
        for _ in 0..<100 {
            if kill(processID, 0) != 0, errno == ESRCH { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return false
    }

    @Test(arguments: [Engine.webkit, Engine.chromium, Engine.firefox])
    func aColdRunAnswersReportsItsPhasesAndLeavesNoProcess(_ engine: Engine) async throws {
        let python = try #require(ExecutableLocator.find("python3"))
        let (folder, url) = try Self.page()
        defer { try? FileManager.default.removeItem(at: folder) }
        let floor = try ProtocolFloor.prepare(python: python, folder: folder)

        let run = try floor.cold(engine: engine, pageURL: url, reportingProcesses: true)

        #expect(run.value == 1)
        #expect(run.phases.map(\.name) == (engine == .webkit ? ["display"] : []) + Self.phaseNames)
        #expect(run.phases.allSatisfy { $0.seconds >= 0 })
        #expect(abs(run.phases.reduce(0) { $0 + $1.seconds } - run.elapsed) < 1e-6)
        let processes = try #require(run.processes)
        // The driver, the browser it started (Firefox's content processes too), and for WebKit the X server.
        #expect(processes.count >= (engine == .webkit ? 3 : 2))
        for processID in processes {
            #expect(await Self.hasEnded(processID), "process \(processID) is still running")
        }
    }

    @Test
    func aMissingPageIsAFailureOfTheRunNotAHang() throws {
        let python = try #require(ExecutableLocator.find("python3"))
        let (folder, _) = try Self.page()
        defer { try? FileManager.default.removeItem(at: folder) }
        let floor = try ProtocolFloor.prepare(python: python, folder: folder)
        #expect(throws: BenchmarkError.self) {
            try floor.cold(engine: .chromium, pageURL: "not a url", reportingProcesses: true)
        }
    }
}
