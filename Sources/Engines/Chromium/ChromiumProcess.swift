import Foundation
import SystemSupport

/// A Chromium that PageScript started itself with a DevTools port of its own
/// (`--remote-debugging-port=0`), without a WebDriver driver in between.
///
/// Chromium picks a free port and prints `DevTools listening on ws://…` on standard error; the
/// launcher reads that line from the browser's log. Chromium 136 and later refuse remote
/// debugging on the default profile folder, so there is always a `--user-data-dir`: a throwaway
/// folder removed by ``stop()``, or the caller's (a persistent profile, kept). Chromium's own
/// temporary folders (`org.chromium.Chromium.*`, which a stopped browser leaves behind) go in a
/// folder of the launcher's, its `TMPDIR` (named and placed as ``BrowserEngine``'s), removed by
/// ``stop()`` too.
///
/// ```swift
/// let chromium = try ChromiumProcess.launch()
/// defer { chromium.stop() }
/// let connection = try await DevToolsConnection.connect(to: .webSocket(chromium.webSocketURL))
/// ```
public final class ChromiumProcess: Sendable {
    /// The browser process (its own process group: stopping it stops every helper).
    public let process: ChildProcess
    /// The browser target's WebSocket URL.
    public let webSocketURL: URL
    /// The profile folder the browser uses.
    public let profileFolder: String

    private let removesProfileFolder: Bool
    private let logPath: String
    private let temporaryFolder: String

    private init(process: ChildProcess, webSocketURL: URL, profileFolder: String, removesProfileFolder: Bool, logPath: String,
                 temporaryFolder: String) {
        self.process = process
        self.webSocketURL = webSocketURL
        self.profileFolder = profileFolder
        self.removesProfileFolder = removesProfileFolder
        self.logPath = logPath
        self.temporaryFolder = temporaryFolder
    }

    /// The DevTools port Chromium chose (also serving `/json/version` and `/json/list`).
    public var port: Int { webSocketURL.port ?? 0 }

    /// Starts Chromium and waits until its DevTools endpoint is listening.
    ///
    /// - Parameters:
    ///   - executable: The browser; `chromium` on `PATH` when `nil`.
    ///   - arguments: Its arguments besides the port, the profile and the first URL; PageScript's
    ///     headless set by default (``ChromiumLauncher/arguments(headless:takesScreenshots:language:)``). Leave out `--headless`
    ///     for a visible window.
    ///   - profileFolder: A persistent profile folder; a throwaway one when `nil`.
    ///   - initialURL: What the first tab shows.
    ///   - environment: The browser's environment; this process's when `nil`. Its `TMPDIR` is
    ///     replaced by the launcher's own folder either way.
    ///   - timeout: Seconds to wait for the endpoint.
    /// - Throws: ``EngineError/missing(engine:programs:)`` or
    ///   ``EngineError/failedToStart(engine:reason:)`` with the end of the browser's log.
    public static func launch(
        executable: String? = nil,
        arguments: [String] = ChromiumLauncher.arguments(),
        profileFolder: String? = nil,
        initialURL: String = "about:blank",
        environment: [String: String]? = nil,
        timeout: Double = 20
    ) throws(EngineError) -> ChromiumProcess {
        guard let path = ExecutableLocator.find(executable ?? "chromium") else {
            throw .missing(engine: .chromium, programs: [executable ?? "chromium"])
        }
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let profile = profileFolder ?? NSTemporaryDirectory() + "pagescript-devtools-profile-\(unique)"
        let logPath = NSTemporaryDirectory() + "pagescript-devtools-chromium-\(unique).log"
        do {
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        } catch {
            throw .failedToStart(engine: .chromium, reason: "cannot create the profile folder \(profile): \(error)")
        }
        // Named as the launchers' other browser folders, so that one a killed process left is
        // swept with theirs (``ThrowawayProfileFolder/removeAbandoned(prefixes:)``).
        let temporaryFolder = ThrowawayProfileFolder.path(named: "\(BrowserEngine.browserTemporaryPrefix)\(unique)")
        var browserEnvironment = environment ?? ProcessInfo.processInfo.environment
        browserEnvironment["TMPDIR"] = temporaryFolder
        let removeScratch = {
            unlink(logPath)
            if profileFolder == nil { try? FileManager.default.removeItem(atPath: profile) }
            try? FileManager.default.removeItem(atPath: temporaryFolder)
        }
        do {
            try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: true)
        } catch {
            removeScratch()
            throw .failedToStart(engine: .chromium, reason: "cannot create the temporary folder \(temporaryFolder): \(error)")
        }
        let process: ChildProcess
        do {
            process = try ChildProcess.launch(
                executable: path,
                arguments: arguments + ChromiumLauncher.debuggingArguments(profile: profile, initialURL: initialURL),
                environment: browserEnvironment, outputPath: logPath)
        } catch {
            removeScratch()
            throw .failedToStart(engine: .chromium, reason: error.description)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let url = listeningURL(in: log) {
                return ChromiumProcess(process: process, webSocketURL: url, profileFolder: profile,
                                       removesProfileFolder: profileFolder == nil, logPath: logPath, temporaryFolder: temporaryFolder)
            }
            if let status = process.pollExit() {
                let tail = logTail(log)
                removeScratch()
                throw .failedToStart(engine: .chromium, reason: "the browser exited (status \(status))\(tail)")
            }
            usleep(20_000)
        }
        let tail = logTail((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        process.stop()
        removeScratch()
        throw .failedToStart(engine: .chromium, reason: "no DevTools endpoint within \(Int(timeout)) s\(tail)")
    }

    /// Stops the browser and every process it started, and removes the throwaway profile
    /// folder, the browser's temporary folder and the log. Safe to call more than once.
    public func stop() {
        process.stop()
        unlink(logPath)
        if removesProfileFolder { try? FileManager.default.removeItem(atPath: profileFolder) }
        try? FileManager.default.removeItem(atPath: temporaryFolder)
    }

    /// Kills the browser at once (SIGKILL to its whole process group), as a crash would; the
    /// profile and log stay until ``stop()``.
    public func kill() {
        process.killGroupImmediately()
    }

    /// The URL of the last `DevTools listening on ws://…` line of a browser log.
    static func listeningURL(in log: String) -> URL? {
        let marker = "DevTools listening on "
        guard let range = log.range(of: marker, options: .backwards) else { return nil }
        let rest = log[range.upperBound...]
        guard let end = rest.firstIndex(where: \.isNewline) else { return nil }
        return URL(string: String(rest[..<end]).trimmingCharacters(in: .whitespaces))
    }

    private static func logTail(_ log: String) -> String {
        let tail = log.split(separator: "\n").suffix(5).joined(separator: " | ")
        return tail.isEmpty ? "" : "; browser log: \(tail)"
    }
}
