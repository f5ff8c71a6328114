import Foundation
import GMAPI
import UserScripts

/// Runs the library's scripts that belong on the open page, the way a userscript manager would.
public enum LibraryRun {
    /// The automatic scripts for the page the browser is on, each run in its own round trip and
    /// its own scope, so that one script's exception does not stop the others, each with the GM
    /// API its `@grant` lines ask for; then those for each of its frames, as a manager runs them:
    /// matched against the frame's own address, and not the scripts with `@noframes`
    /// (``PageSession/visitFrames(_:)``).
    ///
    /// Which scripts belong is decided from the address the browser reports (which the page's own
    /// script cannot disguise), and each script runs only if the page is still at exactly that
    /// address when it starts: a page that moves to another site in between gets nothing.
    ///
    /// - Parameters:
    ///   - library: The library.
    ///   - page: The page.
    ///   - excluded: Scripts not to run again (those that already ran in this document, when a
    ///     single-page navigation changed the address).
    ///   - host: The host half of the GM API; `nil` makes one for the library, shut down at the end.
    ///   - early: The results of the scripts installed in the document before it started, which
    ///     ran there at their own moments (``PageSession/collectDocumentStartRuns()``), used in
    ///     their place; the other `document-start` scripts run now and are reported as having run
    ///     at document-end.
    ///   - excluded: Scripts not to run again (those that already ran in this document, when a
    ///     single-page navigation changed the address).
    ///   - expectedURL: The address the caller saw the document at: when the browser shows
    ///     another one now (the page went on to its next document meanwhile), nothing runs and the
    ///     results are empty, for the caller to handle that document when it sees it.
    /// - Returns: The address matched against, and one result per script, in library order.
    public static func runMatching(
        library: ScriptLibrary, on page: PageSession, excluding excluded: Set<ScriptID> = [], host: GMHost? = nil,
        early: [ScriptID: ScriptResult] = [:], expectedURL: String? = nil
    ) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult]) {
        let address = try await page.browserURL()
        if let expectedURL, address != expectedURL { return (address, []) }
        guard let url = try? PageURL(address) else { return (address, []) }
        return try await runWithFrames(on: page, host: host, libraryDirectory: library.directory, library: { library }) { gm throws(InjectionError) in
            try await run(automatic(in: library, at: url, excluding: excluded), at: address, on: page, host: gm,
                          libraryDirectory: library.directory, early: early)
        }
    }

    /// The scripts of `library` that run by themselves at `url`, but those `excluded`.
    private static func automatic(in library: ScriptLibrary, at url: PageURL, excluding excluded: Set<ScriptID> = []) throws(InjectionError) -> [ScriptMatch] {
        do {
            return try library.which(url: url).filter { $0.runsAutomatically && !excluded.contains($0.script.id) }
        } catch {
            throw .library(error.description)
        }
    }

    /// The automatic scripts for the page the browser is on, as
    /// ``runMatching(library:on:excluding:host:early:expectedURL:)`` runs them, from scripts
    /// `planned` before the page opened: when the browser is at the planned address, the library
    /// is not read again; when it is elsewhere (a redirect), `library` is opened and matched
    /// against where it is.
    ///
    /// - Parameters:
    ///   - planned: The scripts read for the address that was opened.
    ///   - library: Opens the library, for an address other than the planned one.
    ///   - page: The page.
    ///   - host: The host half of the GM API; `nil` makes one, shut down at the end.
    ///   - early: The results of the scripts installed in the document before it started.
    /// - Returns: The address matched against, and one result per script, in library order.
    public static func runMatching(
        planned: PlannedScripts, library: () throws -> ScriptLibrary, on page: PageSession, host: GMHost? = nil,
        early: [ScriptID: ScriptResult] = [:]
    ) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult]) {
        let address = try await page.browserURL()
        guard let url = try? PageURL(address) else { return (address, []) }
        return try await runWithFrames(on: page, host: host, libraryDirectory: planned.libraryDirectory, library: library) { gm throws(InjectionError) in
            guard url != planned.url else {
                return try await run(planned.automatic, at: address, on: page, host: gm, libraryDirectory: planned.libraryDirectory, early: early)
            }
            let opened: ScriptLibrary
            do {
                opened = try library()
            } catch {
                throw .library("\(error)")
            }
            return try await run(automatic(in: opened, at: url), at: address, on: page, host: gm, libraryDirectory: opened.directory, early: early)
        }
    }

    /// `top` (the page's own scripts), then the scripts of the page's frames, with one GM host
    /// (`host`, or one made here and shut down at the end).
    private static func runWithFrames(
        on page: PageSession, host: GMHost?, libraryDirectory: URL, library: () throws -> ScriptLibrary,
        _ top: (GMHost) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult])
    ) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult]) {
        let gm = host ?? GMHost(libraryDirectory: libraryDirectory)
        let ran = try await top(gm)
        let framed = try await runInFrames(of: page, library: library, host: gm)
        if host == nil { await gm.shutdown() }
        return (ran.url, ran.results + framed)
    }

    /// The automatic scripts of each frame of the page, matched against the frame's own address
    /// (read in the frame, where the page cannot disguise it), but not those with `@noframes`;
    /// the library is opened only when a frame has an address scripts can match.
    private static func runInFrames(of page: PageSession, library: () throws -> ScriptLibrary,
                                    host: GMHost) async throws(InjectionError) -> [LibraryScriptResult] {
        var opened: ScriptLibrary?
        var results: [LibraryScriptResult] = []
        _ = try await page.visitFrames { _, frame throws(InjectionError) in
            // A frame that went away or shows no page (`about:blank`) has nothing to run.
            guard let address = try? await frame.browserURL(), let url = try? PageURL(address) else { return }
            let scripts: ScriptLibrary
            if let opened {
                scripts = opened
            } else {
                do {
                    scripts = try library()
                } catch {
                    throw .library("\(error)")
                }
                opened = scripts
            }
            let matches = try automatic(in: scripts, at: url).filter { !$0.script.script.interpretation.noFrames }
            guard !matches.isEmpty else { return }
            results += try await run(matches, at: address, on: frame, host: host, libraryDirectory: scripts.directory, early: [:], frame: address).results
        }
        return results
    }

    /// Runs `matches`, the automatic scripts for `address`, on the page, in order.
    private static func run(
        _ matches: [ScriptMatch], at address: String, on page: PageSession, host: GMHost?, libraryDirectory: URL,
        early: [ScriptID: ScriptResult], frame: String? = nil
    ) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult]) {
        let gm = host ?? GMHost(libraryDirectory: libraryDirectory)
        var results: [LibraryScriptResult] = []
        for match in matches {
            if let result = early[match.script.id] {
                results.append(LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: .success(result), frame: frame))
                continue
            }
            let outcome: Result<ScriptResult, InjectionError>
            do {
                let result = try await page.run(userScript: match.script.script, id: match.script.id, host: gm, requiredURL: address)
                outcome = .success(Self.markedLate(result, script: match.script.script))
            } catch {
                if case .timedOut = error {
                    results.append(LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: .failure(error), frame: frame))
                    // A script stuck in a loop holds the page: the ones after it cannot run either.
                    break
                }
                outcome = .failure(error)
            }
            results.append(LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: outcome, frame: frame))
        }
        if host == nil { await gm.shutdown() }
        return (address, results)
    }

    /// The library's `document-start` scripts for `address` (the address about to be opened), to
    /// install before the navigation.
    public static func documentStartScripts(library: ScriptLibrary, address: String) -> [(script: UserScript, id: ScriptID)] {
        (try? PlannedScripts(library: library, address: address))?.documentStart ?? []
    }

    /// The library's scripts that run by themselves at `address` (the address about to be
    /// opened), whatever their `@run-at`, in library order: what a browser installs in the
    /// document before it starts (``PageSession/documentInstallation(of:url:host:timeout:layout:)``).
    public static func automaticScripts(library: ScriptLibrary, address: String) -> [(script: UserScript, id: ScriptID)] {
        guard let url = try? PageURL(address), let matches = try? library.which(url: url) else { return [] }
        return matches.filter(\.runsAutomatically).map { ($0.script.script, $0.script.id) }
    }

    /// `results` of scripts that ran at `url` by themselves (installed before the document
    /// started), with the stored scripts and the rules that matched there, in library order. A
    /// script that no longer matches `url` (the library changed meanwhile) is left out.
    public static func results(_ results: [ScriptID: ScriptResult], library: ScriptLibrary, at url: String) -> [LibraryScriptResult] {
        guard !results.isEmpty, let pageURL = try? PageURL(url), let matches = try? library.which(url: pageURL) else { return [] }
        return matches.compactMap { match in
            results[match.script.id].map { LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: .success($0)) }
        }
    }

    /// A `document-start` script run after the page loaded says so: `ranAt` is `document-end`.
    static func markedLate(_ result: ScriptResult, script: UserScript) -> ScriptResult {
        guard script.interpretation.runMode.runAt == .documentStart else { return result }
        var activity = result.userscript ?? GMActivity()
        activity.ranAt = RunAt.documentEnd.rawValue
        return result.with(userscript: activity)
    }
}
