import Foundation
import SystemSupport
import Testing
@testable import Benchmarking

/// Playwright for Python as the bench sets it up: a Python without pip cannot install it, which
/// the bench reports as an unavailable peer (its rows say so) rather than failing; where the
/// bench's environment has it, it runs the script on the system Chromium and stops it.
struct PlaywrightPeerTests {
    @Test
    func aPythonThatCannotInstallPlaywrightMakesThePeerUnavailable() throws {
        let python = try #require(ExecutableLocator.find("python3"))
        let folder = try ScratchFolder.make("pagescript-playwright-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = folder.appendingPathComponent("venv").path(percentEncoded: false)
        _ = try MeasuredProcess.run(executable: python, arguments: ["-m", "venv", "--without-pip", environment], timeout: 120, label: "venv")
        var notes: [String] = []
        do throws(BenchmarkError) {
            _ = try PlaywrightPeer.prepare(python: environment + "/bin/python", folder: folder) { notes.append($0) }
            Issue.record("Playwright was set up without pip")
        } catch {
            guard case let .peerUnavailable(reason) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(reason.contains("pip install playwright"))
        }
        #expect(notes.contains { $0.contains("installing Playwright") })
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: PlaywrightPeerTests.benchPython), "the bench's environment is not set up here"))
    func theBenchEnvironmentsPlaywrightRunsTheScriptOnTheSystemChromium() throws {
        let folder = try ScratchFolder.make("pagescript-playwright-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        try Data("<!doctype html><title>Peer</title>\n".utf8).write(to: page)
        let peer = try PlaywrightPeer.prepare(python: Self.benchPython, folder: folder) { _ in }
        #expect(!peer.version.isEmpty)
        let warm = try peer.warm(pageURL: page.absoluteString, repetitions: 3)
        #expect(warm.samples.count == 3)
    }

    static let benchPython = SeleniumPeer.defaultFolder(environment: ProcessInfo.processInfo.environment)
        .appendingPathComponent("bin/python").path(percentEncoded: false)
}
