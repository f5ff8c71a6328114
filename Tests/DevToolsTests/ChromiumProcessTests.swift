import DevTools
import Engines
import Foundation
import Testing

/// What a Chromium started with its own DevTools port leaves behind: nothing.
@Suite struct ChromiumProcessTests {
    /// The browser's temporary folders (`org.chromium.Chromium.*`, which a stopped Chromium leaves
    /// behind) go in a folder of the launcher's, removed with the profile at stop(), even when the
    /// caller's environment names a `TMPDIR` of its own.
    @Test func theBrowsersTemporaryFoldersAreItsOwnAndRemovedAtStop() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = "/tmp"
        let chromium = try ChromiumProcess.launch(environment: environment)
        let variables = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(chromium.process.processID)/environ"))) ?? Data())
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let temporary = try #require(variables.first { $0.hasPrefix("TMPDIR=") }.map { String($0.dropFirst("TMPDIR=".count)) })
        let made = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        chromium.stop()
        #expect(temporary.hasPrefix(ThrowawayProfileFolder.path(named: BrowserEngine.browserTemporaryPrefix + "\(getpid())-")), "\(temporary)")
        #expect(made.contains { $0.hasPrefix("org.chromium.Chromium.") }, "Chromium keeps its temporary folders there: \(made)")
        #expect(!FileManager.default.fileExists(atPath: temporary), "the browser's temporary folder is removed")
        #expect(!FileManager.default.fileExists(atPath: chromium.profileFolder), "the throwaway profile is removed")
    }
}
