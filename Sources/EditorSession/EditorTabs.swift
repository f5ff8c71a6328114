import Foundation
import PageRuntime
import ScriptConsole
import UserScripts

/// The tabs the editor's runs ask for with `GM_openInTab`, as a manager opens them: real tabs,
/// each with the scripts that match it.
///
/// On a page the editor opened (`pagescript edit`), each tab opens in the editor's browser as soon
/// as the run ends and stays open until the editor closes; the library's scripts that match it run
/// there, and so does the editor's own script where its rules claim the tab's address. What ran
/// joins the run's console, under a line naming the tab. The editor's page stays the one runs go
/// to. On a borrowed page (the editor of `browse`), the tabs are handed to `browse`, which opens
/// them when the editor closes, as it opens its own scripts' tabs (``EditorTabs/Requests``).
///
/// Tabs that scripts in a tab ask for are not opened: one script that opens its own site in a
/// tab would open tabs without end.
enum EditorTabs {
    /// The longest a tab may take to load, in seconds.
    static let loadTimeout: Double = 20

    /// The addresses the runs of a borrowed page's editor asked to open, in order.
    final class Requests: @unchecked Sendable {
        private let lock = NSLock()
        private var addresses: [String] = []

        func add(_ more: [String]) {
            lock.withLock { addresses += more }
        }

        var all: [String] {
            lock.withLock { addresses }
        }
    }

    /// Opens the tabs `result` asked for on `page`, running in each what matches it (`script`, the
    /// editor's text that ran, as `id`, and the library's other scripts); returns the lines that
    /// say what became of each tab, for the run's console.
    static func open(for result: ScriptResult, script: UserScript, id: ScriptID?, on page: PageSession,
                     library: ScriptLibrary, host: GMHost) async -> [ConsoleMessage] {
        var lines: [ConsoleMessage] = []
        for tab in result.userscript?.tabs ?? [] {
            guard let address = openable(tab, from: result.context.url, lines: &lines) else { continue }
            do {
                let opened = try await page.visitInNewTab(address, timeout: loadTimeout) { tab in
                    await runScripts(in: tab, script: script, id: id, library: library, host: host)
                }
                lines.append(ConsoleMessage(level: .info, message: "── GM_openInTab: \(opened.url) (\(opened.title)) opened in a new tab, "
                    + "open until the editor closes"))
                lines += opened.output
            } catch {
                lines.append(ConsoleMessage(level: .warn, message: "── GM_openInTab: \(address) did not open: \(error)"))
            }
        }
        return lines
    }

    /// Adds the addresses of the tabs `result` asked for to `requests`, for `browse` to open when
    /// the editor closes; returns the lines that say so.
    static func handOver(for result: ScriptResult, to requests: Requests) -> [ConsoleMessage] {
        var lines: [ConsoleMessage] = []
        var addresses: [String] = []
        for tab in result.userscript?.tabs ?? [] {
            guard let address = openable(tab, from: result.context.url, lines: &lines) else { continue }
            addresses.append(address)
            lines.append(ConsoleMessage(level: .info, message: "── GM_openInTab: \(address) opens in a new tab of the browser, "
                + "with its own scripts, when the editor closes"))
        }
        requests.add(addresses)
        return lines
    }

    /// The address `tab` opens (``GMTab/opening(from:)``), or `nil` with a line saying why it
    /// does not open.
    private static func openable(_ tab: GMTab, from pageURL: String, lines: inout [ConsoleMessage]) -> String? {
        let why: String
        switch tab.opening(from: pageURL) {
        case let .opens(address): return address
        case .closedByScript: why = "the script closed it first"
        case let .refused(reason): why = reason
        }
        lines.append(ConsoleMessage(level: .warn, message: "── GM_openInTab: \(tab.url) not opened: \(why)"))
        return nil
    }

    /// Runs in the tab the library's scripts that match it (but the library's copy of the editor's
    /// script), then the editor's script where its rules claim the tab's address; the lines that
    /// say what each did.
    private static func runScripts(in tab: PageSession, script: UserScript, id: ScriptID?, library: ScriptLibrary,
                                   host: GMHost) async -> [ConsoleMessage] {
        var lines: [ConsoleMessage] = []
        do {
            let run = try await LibraryRun.runMatching(library: library, on: tab, excluding: Set(id.map { [$0] } ?? []), host: host)
            for entry in run.results {
                let place = entry.frame.map { " in its frame \($0)" } ?? ""
                lines += describe(entry.outcome, of: "“\(entry.script.name)”\(place)")
            }
        } catch {
            lines.append(ConsoleMessage(level: .error, message: "── the library's scripts did not run in the tab: \(error)"))
        }
        let rules = script.interpretation.rules
        let matcher = ScriptMatcher([(id: ScriptID("editor"), rules: rules)])
        if let address = try? await tab.browserURL(), let url = try? PageURL(address), !matcher.matches(url).isEmpty {
            do {
                lines += describe(.success(try await tab.run(userScript: script, id: id, host: host)), of: "the editor's script")
            } catch {
                lines += describe(.failure(error), of: "the editor's script")
            }
        }
        if lines.isEmpty { lines.append(ConsoleMessage(level: .info, message: "── no script matches the tab")) }
        return lines
    }

    /// A script's outcome in a tab: a line naming it, what it logged, its value or its error.
    private static func describe(_ outcome: Result<ScriptResult, InjectionError>, of name: String) -> [ConsoleMessage] {
        var lines = [ConsoleMessage(level: .info, message: "── in the tab, \(name):")]
        switch outcome {
        case let .success(result):
            lines += result.console
            if let error = result.error {
                lines.append(ConsoleMessage(level: .error, message: "\(error.name): \(error.message)"))
            } else if let value = result.value {
                lines.append(ConsoleMessage(level: .info, message: "→ \(value.serialized)"))
            }
            if result.userscript?.tabs.isEmpty == false {
                lines.append(ConsoleMessage(level: .warn, message: "── the tabs it asked for there are not opened: only the editor's page opens tabs"))
            }
        case let .failure(error):
            lines.append(ConsoleMessage(level: .error, message: "\(error)"))
        }
        return lines
    }
}
