import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// `--headed` and `--profile`: a browser on the user's display (here a private Xvfb standing in
/// for it), and a Chromium or Firefox profile that keeps cookies between runs.
@Suite(.serialized)
struct VisibleBrowserTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Shown</title><p>hi</p>"])
    }

    @Test(arguments: ["webkit", "chromium", "firefox"])
    func headedRunsOnTheUsersDisplay(engine: String) async throws {
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let outcome = try await PageScriptBinary.outcome(of: 
            ["run", server.url(), "-e", "document.title + ' ' + navigator.userAgent", "--headed", "--engine", engine],
            environment: [marker.name: marker.value, "DISPLAY": display.name])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("\"Shown "), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("Headless"), "a headed Chromium does not call itself headless")
        #expect(ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).isEmpty)

        // The browser really goes to $DISPLAY: where there is no X server, it cannot start.
        let nowhere = try await PageScriptBinary.outcome(of: 
            ["run", server.url(), "-e", "1", "--headed", "--engine", engine], environment: ["DISPLAY": ":4321"])
        #expect(nowhere.status == 3, "\(nowhere.standardError)")
    }

    @Test func headedWithoutADisplayIsAUsageError() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1", "--headed"], environment: ["DISPLAY": ""])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("$DISPLAY is not set"), "\(outcome.standardError)")
    }

    @Test(arguments: ["chromium", "firefox"])
    func aKeptProfileKeepsCookiesBetweenRuns(engine: String) async throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-profile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let set = try await PageScriptBinary.outcome(of: 
            ["run", server.url(), "-e", "document.cookie = 'kept=yes; max-age=3600'; document.cookie", "--engine", engine, "--profile", profile.path])
        #expect(set.status == 0, "\(set.standardError)")
        let read = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "document.cookie", "--engine", engine, "--profile", profile.path])
        #expect(read.standardOutput == "\"kept=yes\"\n", "\(read.standardError)")
        #expect(FileManager.default.fileExists(atPath: profile.path), "the profile is the user's: never removed")
        // Without --profile the run gets a throwaway one (Firefox's comes from geckodriver's own
        // folder, a new one each session, which its other tests start every time).
        guard engine == "chromium" else { return }
        let throwaway = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "document.cookie", "--engine", engine])
        #expect(throwaway.standardOutput == "\"\"\n")
    }

    @Test func aProfileIsRefusedForWebKitWithTheReason() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1", "--profile", "/tmp/x"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("only available with --engine chromium"), "\(outcome.standardError)")
    }
}
