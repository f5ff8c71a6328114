import Foundation
import Injection
import UserScripts
import WebDriver

/// Follows a browser the user drives and runs the library's scripts on every page it shows,
/// as a userscript manager does: on each new document, once it has loaded (document-idle), the
/// enabled scripts that match its address, each once per document and in its own scope; on a
/// single-page navigation (`pushState`, a hash), the scripts that newly match.
///
/// It looks at the browser a few times a second with one small Execute Script call, over plain
/// W3C WebDriver, so it works on every engine; it follows the window the session controls.
///
/// ```swift
/// let follower = BrowserFollower(page: page, library: library)
/// let ending = await follower.follow(isStopped: { stop.isRequested }) { event in show(event) }
/// ```
public struct BrowserFollower: Sendable {
    /// How following ended.
    public enum Ending: Sendable, Equatable {
        /// The user closed the window, or the browser went away.
        case windowClosed(reason: String)
        /// `isStopped` said so (the user pressed `q`), or the task was cancelled.
        case stopped
    }

    /// The page session on the browser's window.
    public let page: PageSession
    /// Where the scripts come from.
    public let library: ScriptLibrary
    /// How long to wait between looks.
    public let interval: Duration

    public init(page: PageSession, library: ScriptLibrary, interval: Duration = .milliseconds(200)) {
        self.page = page
        self.library = library
        self.interval = interval
    }

    /// Follows the browser until the window is closed or `isStopped` returns `true`, reporting
    /// every page and every run to `report`.
    public func follow(isStopped: @Sendable () -> Bool, report: @Sendable (BrowseEvent) -> Void) async -> Ending {
        // One host for the whole session, so that what scripts do after their runs (a value
        // written or a request made from a timer) is served between looks.
        let host = GMHost(libraryDirectory: library.directory)
        let ending = await follow(host: host, isStopped: isStopped, report: report)
        await host.shutdown()
        return ending
    }

    private func follow(host: GMHost, isStopped: @Sendable () -> Bool, report: @Sendable (BrowseEvent) -> Void) async -> Ending {
        let probe = DocumentProbe()
        var address: String?
        var ranInDocument: Set<ScriptID> = []
        while !isStopped(), !Task.isCancelled {
            do {
                let reply = try await page.session.executeScript(probe.source, arguments: [.string(probe.mark)], timeout: 10)
                if let sighting = probe.sighting(from: reply), sighting.isLoaded {
                    if sighting.isNewDocument {
                        address = sighting.url
                        ranInDocument = []
                        report(.newDocument(url: sighting.url, title: sighting.title))
                        ranInDocument = await runScripts(excluding: ranInDocument, host: host, report: report)
                    } else if sighting.url != address {
                        address = sighting.url
                        report(.addressChanged(url: sighting.url, title: sighting.title))
                        ranInDocument.formUnion(await runScripts(excluding: ranInDocument, host: host, report: report))
                    }
                    if !ranInDocument.isEmpty { _ = try? await page.serveLateUserScriptWork() }
                }
            } catch {
                if error.meansTheSessionIsGone { return .windowClosed(reason: error.description) }
                // A navigation in progress or a dialog the user has open: look again shortly.
            }
            try? await Task.sleep(for: interval)
        }
        return .stopped
    }

    /// Runs what matches the browser's address now, apart from `excluded`; returns what ran.
    private func runScripts(excluding excluded: Set<ScriptID>, host: GMHost, report: @Sendable (BrowseEvent) -> Void) async -> Set<ScriptID> {
        do {
            let run = try await LibraryRun.runMatching(library: library, on: page, excluding: excluded, host: host)
            report(.ran(url: run.url, results: run.results))
            return Set(run.results.map(\.script.id))
        } catch {
            report(.failed(url: (try? await page.browserURL()) ?? "", error: error))
            return []
        }
    }
}
