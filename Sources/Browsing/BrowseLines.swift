import Foundation
import PageRuntime
import SystemSupport

/// `browse` for a program to read, when standard input or output is not a terminal: one line per
/// page, per script and per save (`page`, `ran`, `off`, `failed`, `saved`, then the details,
/// separated by tabs); console lines, dialogs and errors on standard error, as `run` shows them.
/// Page-provided text is escaped.
///
/// ```swift
/// let ending = await follower.follow(isStopped: { stop.isClaimed }) { event in
///     BrowseLines.lines(for: event).forEach { $0.stream.write($0.text + "\n") }   // in the executable
/// }
/// ```
public enum BrowseLines {
    /// The lines that show `event`.
    public static func lines(for event: BrowseEvent) -> [StreamLine] {
        let safe = TerminalSafeText.escaped
        func tabbed(_ fields: [String]) -> StreamLine { .output(fields.joined(separator: "\t")) }
        switch event {
        case let .newDocument(url, title), let .addressChanged(url, title):
            return [tabbed(["page", safe(url), safe(title)])]
        case let .ran(url, results):
            return lines(of: results, at: url, ran: "ran", failed: "failed")
        case let .ranInBackground(url, _, results):
            return lines(of: results, at: url, ran: "background", failed: "background-failed")
        case let .windowChanged(url, title):
            return [tabbed(["window", safe(url), safe(title)])]
        case let .keptDocumentShown(url, title, _):
            return [tabbed(["back", safe(url), safe(title)])]
        case let .tabOpened(url):
            return [tabbed(["tab", safe(url)])]
        case let .laterOutput(_, output), let .laterOutputInBackground(_, output):
            return output.flatMap(ReportRenderer.lines(of:)).map(StreamLine.error)
        case let .switchedOff(url, scripts):
            return scripts.map { tabbed(["off", $0.id.rawValue, safe($0.name), safe(url)]) }
        case let .failed(url, error):
            return [tabbed(["failed", "-", "-", safe(url), safe(error.description)])]
        case let .documentStartUnavailable(reason):
            return [.error("document-start scripts will run after each page has loaded: \(safe(reason))")]
        case let .savesNotFollowed(reason):
            return [.error("saves are not followed: \(safe(reason))")]
        case let .notificationsNotShown(reason):
            return [.error("notifications are reported, not shown: \(safe(reason))")]
        case let .clipboardNotSet(reason):
            return [.error("the clipboard is reported, not set: \(safe(reason))")]
        case let .scriptSaved(file, save):
            return [tabbed(["saved", safe(file)] + fields(of: save))]
        case .menuCommandRan, .siteSwitched:
            // Only keys at a terminal ask for these, and then the terminal view shows them.
            return []
        }
    }

    /// One line per script: `ran` (or `failed`), its ID, name, the page's URL, and its value (or
    /// error); its console lines and dialogs on standard error, before it.
    static func lines(of results: [LibraryScriptResult], at url: String, ran: String, failed: String) -> [StreamLine] {
        let safe = TerminalSafeText.escaped
        return results.flatMap { entry -> [StreamLine] in
            let head = [entry.script.id.rawValue, safe(entry.script.name), safe(entry.frame ?? url)]
            switch entry.outcome {
            case let .success(result):
                let outcome = result.error.map { safe(ReportRenderer.errorLine($0)) } ?? safe(result.value?.serialized ?? "undefined")
                return ReportRenderer.detailLines(of: result, menuCommands: .browseKeys).map(StreamLine.error)
                    + [.output(([result.error == nil ? ran : failed] + head + [outcome]).joined(separator: "\t"))]
            case let .failure(error):
                return [.output(([failed] + head + [safe(error.description)]).joined(separator: "\t"))]
            }
        }
    }

    /// A save's fields after `saved` and the file: `reload`, the script's ID, name and the page;
    /// `elsewhere`, the ID and name; `unusable` and the problems; `removed`.
    static func fields(of save: ScriptSave) -> [String] {
        let safe = TerminalSafeText.escaped
        switch save {
        case let .reloading(script, url): return ["reload", script.id.rawValue, safe(script.name), safe(url)]
        case let .notOnThisPage(script): return ["elsewhere", script.id.rawValue, safe(script.name)]
        case let .unusable(problems): return ["unusable", safe(problems.joined(separator: "; "))]
        case .removed: return ["removed"]
        }
    }

    /// Claims `stop` when `q` and Enter come on standard input; the rest of the input is ignored.
    /// Reads on a thread of its own.
    public static func watchForQuit(_ stop: OnceFlag) {
        let reader = Thread {
            while let line = readLine() {
                if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    _ = stop.claim()
                    return
                }
            }
        }
        reader.start()
    }
}
