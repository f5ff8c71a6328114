import Foundation
import SystemSupport

/// What a local engine's launcher started for ``BrowserEngine``: the driver (with WebKit's
/// browser behind it), a private X display, the folders it made, and the capabilities its
/// sessions ask for. Each engine's `launch` is here; what it is made of is in its own folder.
struct LocalLaunch: Sendable {
    let driver: LocalDriver
    /// The X server PageScript started for the browser, if any.
    let display: ChildProcess?
    let capabilities: JSONValue
    /// Folders made for the browser (a throwaway profile, its temporary folder).
    let scratchFolders: [String]
    /// The least time a new session is given, in seconds: more than callers ask for an engine
    /// whose browser is slow to start (Firefox, ``FirefoxLauncher/sessionStartAllowance``).
    var sessionStartAllowance: Double = 0
}

extension WebKitLauncher {
    /// Starts WebKit for one engine: a private X display unless the browser opens on the user's,
    /// then the driver and PageScript's browser. On failure, everything started is stopped.
    static func launch(programs: [String: String], options: LaunchOptions, timeout: Double) async throws(EngineError) -> LocalLaunch {
        var display: XvfbDisplay?
        let displayName: String
        switch options.display {
        case .hidden:
            let started = try XvfbDisplay.start(executable: programs["Xvfb"] ?? "Xvfb", timeout: timeout)
            display = started
            displayName = started.name
            PhaseTimeline.current?.end("display")
        case let .user(name):
            displayName = name
        }
        // On PageScript's own display, pages get the standard viewport; on the user's, the window
        // is theirs.
        let browserArguments = (options.display == .hidden ? hiddenBrowserArguments : []) + options.settings.webKitBrowserArguments
        do {
            let driver = try await startDriver(
                executable: programs["WebKitWebDriver"] ?? "WebKitWebDriver",
                environment: environment(display: displayName, takesScreenshots: options.takesScreenshots || options.display != .hidden,
                                         language: options.language),
                timeout: timeout, allowDirectLink: !options.scriptsPastTheDriver, browserArguments: browserArguments)
            PhaseTimeline.current?.end("driver")
            let own = sessionCapabilities(for: driver, browserArguments: browserArguments)
            return LocalLaunch(driver: driver, display: display?.process, capabilities: options.settings.mergedCapabilities(.object(own), engine: .webkit, browserName: nil),
                               scratchFolders: [])
        } catch {
            display?.stop()
            throw error
        }
    }
}

extension ChromiumLauncher {
    /// Starts chromedriver for one engine, with the browser's profile and temporary folders (or,
    /// attached to the user's Chromium, the driver alone). On failure, everything made is removed.
    static func launch(programs: [String: String], options: LaunchOptions, timeout: Double) async throws(EngineError) -> LocalLaunch {
        let driverPath = programs["chromedriver"] ?? "chromedriver"
        var environment = ProcessInfo.processInfo.environment
        if let address = options.attachAddress {
            let driver = try await startDriver(executable: driverPath, environment: environment, timeout: timeout)
            PhaseTimeline.current?.end("driver")
            return LocalLaunch(driver: driver, display: nil, capabilities: .object(attachCapabilities(address: address)), scratchFolders: [])
        }
        var scratchFolders: [String] = []
        do {
            if case let .user(name) = options.display { environment["DISPLAY"] = name }
            let profile: String
            if let kept = options.profileDirectory {
                profile = kept
                try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            } else {
                // A profile folder of PageScript's own, removed at the end, so that a browser that
                // had to be killed leaves no profile behind; in memory where there is room, since
                // removing it from a disk is slow (see ThrowawayProfileFolder).
                profile = ThrowawayProfileFolder.path(named: "\(BrowserEngine.throwawayProfilePrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
                scratchFolders.append(profile)
                // Starts on about:blank, not on the New Tab page the first navigation would wait for.
                try ChromiumProfile.makeThrowaway(at: profile)
            }
            // Chromium's own temporary folders (`org.chromium.Chromium.*`) go where they are
            // removed with everything else: a browser that is stopped rather than quit leaves
            // them behind, one or two a run.
            let temporary = ThrowawayProfileFolder.path(named: "\(BrowserEngine.browserTemporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            scratchFolders.append(temporary)
            environment["TMPDIR"] = temporary
            let driver = try await startDriver(executable: driverPath, environment: environment, timeout: timeout)
            PhaseTimeline.current?.end("driver")
            let capabilities = sessionCapabilities(binary: programs["chromium"] ?? "chromium", profile: profile,
                                                   headless: options.display == .hidden,
                                                   takesScreenshots: options.takesScreenshots || options.display != .hidden,
                                                   language: options.language)
            return LocalLaunch(driver: driver, display: nil, capabilities: options.settings.mergedCapabilities(.object(capabilities), engine: .chromium, browserName: nil),
                               scratchFolders: scratchFolders)
        } catch {
            scratchFolders.forEach { try? FileManager.default.removeItem(atPath: $0) }
            if let error = error as? EngineError { throw error }
            throw .failedToStart(engine: .chromium, reason: "\(error)")
        }
    }
}

extension FirefoxLauncher {
    /// Starts geckodriver for one engine, with the folder its session's profile goes in and the
    /// browser's temporary folder (or, with a kept profile, that folder of the user's). On
    /// failure, everything made is removed.
    static func launch(programs: [String: String], options: LaunchOptions, timeout: Double) async throws(EngineError) -> LocalLaunch {
        var scratchFolders: [String] = []
        do {
            if let kept = options.profileDirectory {
                try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
            }
            let profileRoot = ThrowawayProfileFolder.path(named: "\(BrowserEngine.throwawayFirefoxProfilePrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(atPath: profileRoot, withIntermediateDirectories: true)
            scratchFolders.append(profileRoot)
            let temporary = ThrowawayProfileFolder.path(named: "\(BrowserEngine.browserTemporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            scratchFolders.append(temporary)
            var display: String?
            if case let .user(name) = options.display { display = name }
            let driver = try await startDriver(executable: programs["geckodriver"] ?? "geckodriver", profileRoot: profileRoot,
                                               environment: environment(temporaryFolder: temporary, display: display), timeout: timeout)
            PhaseTimeline.current?.end("driver")
            // A hidden browser's downloads stay in its throwaway folder; a person's go where they expect.
            let downloads = options.display == .hidden && options.profileDirectory == nil ? profileRoot + "/downloads" : nil
            let capabilities = sessionCapabilities(binary: programs["firefox-esr"] ?? "firefox-esr", headless: options.display == .hidden,
                                                   profile: options.profileDirectory, downloads: downloads, language: options.language)
            return LocalLaunch(driver: driver, display: nil,
                               capabilities: options.settings.mergedCapabilities(.object(capabilities), engine: .firefox, browserName: nil),
                               scratchFolders: scratchFolders, sessionStartAllowance: sessionStartAllowance)
        } catch {
            scratchFolders.forEach { try? FileManager.default.removeItem(atPath: $0) }
            if let error = error as? EngineError { throw error }
            throw .failedToStart(engine: .firefox, reason: "\(error)")
        }
    }
}
