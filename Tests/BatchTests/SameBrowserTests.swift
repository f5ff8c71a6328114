import Batch
import Engines
import Foundation
import SystemSupport
import Testing

/// A batch's browsers are started by the same launcher as a run's: the Chromium a batch visit
/// runs in and the one a `run` without `--screenshot` runs in have the same command line, read
/// from the live processes, apart from each one's own profile folder.
@Suite(.serialized) struct SameBrowserTests {
    /// The arguments of the Chromium browser process of the session with `capabilities` (found by the profile folder
    /// chromedriver reports, so that another test's browser is never taken for it; not its
    /// helpers, which have `--type=`), without the executable and the profile folder.
    static func browserArguments(ofSession capabilities: JSONValue) throws -> [String] {
        let profile = try #require(capabilities["chrome"]?["userDataDir"]?.stringValue, "chromedriver names no profile folder")
        let table = ProcessTable.snapshot()
        let browser = table.descendants(of: getpid()).first { pid in
            let arguments = Self.arguments(of: pid)
            return arguments.contains("--user-data-dir=\(profile)") && !arguments.contains { $0.hasPrefix("--type=") }
        }
        let found = try #require(browser, "no Chromium browser process with the profile \(profile)")
        return Array(Self.arguments(of: found).dropFirst()).filter { !$0.hasPrefix("--user-data-dir=") }
    }

    static func arguments(of pid: pid_t) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aBatchVisitAndARunGetTheSameChromium() async throws {
        let engine = try await BrowserEngine.start(.chromium, options: LaunchOptions(takesScreenshots: false))
        let runArguments: [String]
        do {
            let session = try await engine.newSession(timeout: 30)
            runArguments = try Self.browserArguments(ofSession: session.capabilities)
            await session.delete()
        }
        await engine.stop()

        let source = LocalChromiumSource()
        try await source.prepare()
        let opened = try await source.openSession(slot: 0, scriptTimeout: 10, pageLoadTimeout: 10)
        let batchArguments = try Self.browserArguments(ofSession: opened.session.capabilities)
        await source.retire(opened)
        await source.shutdown()

        #expect(runArguments.contains("--disable-threaded-compositing"))
        #expect(runArguments.contains("--headless=new"))
        #expect(runArguments.sorted() == batchArguments.sorted())
    }
}
