import Foundation
import SystemSupport

/// One `GM_openInTab` call: the address and options the script gave, whether it closed the tab
/// through the handle, and, where PageScript opened it (`run`; `browse` follows it instead),
/// what the tab showed, or why it was not opened.
///
/// In `--json`: `{"url","active"?,"insert"?,"setParent"?,"incognito"?,"closedByScript"?,"shownURL"?,"title"?,"notOpened"?}`.
public struct GMTab: Sendable, Equatable {
    /// The call's number in its document, which the handle's `close()` names.
    let number: Int
    /// The address as the script wrote it.
    public let url: String
    /// Tampermonkey's options, as given (`GM_openInTab(url, true)` is `active: false`).
    public let active: Bool?
    public let insert: Bool?
    public let setParent: Bool?
    public let incognito: Bool?
    /// The script called the handle's `close()` (before PageScript opened the tab, in `run`: then
    /// it is not opened).
    public var closedByScript = false
    /// Where the opened tab's page ended up, and its title.
    public var shownURL: String?
    public var title: String?
    /// Why PageScript did not open the tab.
    public var notOpened: String?

    init?(report: JSONValue) {
        guard let url = report["url"]?.stringValue else { return nil }
        number = report["tab"]?.intValue ?? 0
        self.url = url
        active = report["active"]?.boolValue
        insert = report["insert"]?.boolValue
        setParent = report["setParent"]?.boolValue
        incognito = report["incognito"]?.boolValue
    }

    /// What becomes of this call's tab, wherever PageScript opens tabs (`run`, the editor,
    /// `browse`), so that each says the same: the tab opens (at an absolute address), or the
    /// script closed it first, or it is refused, with the reason.
    public enum Opening: Sendable, Equatable {
        case opens(address: String)
        case closedByScript
        case refused(reason: String)
    }

    /// What becomes of this call's tab, for a script that ran on a page at `pageURL`: refused for
    /// an incognito tab (PageScript has no private window to give it) and for an address a tab
    /// may not be sent to (anything but http and https, and `file:` but from a `file:` page, as a
    /// browser lets pages link: no `javascript:`, no `data:`, no local file from a web page).
    public func opening(from pageURL: String) -> Opening {
        if closedByScript { return .closedByScript }
        if incognito == true { return .refused(reason: "PageScript has no private window for an incognito tab") }
        guard let resolved = URL(string: url, relativeTo: URL(string: pageURL))?.absoluteURL,
              let scheme = resolved.scheme?.lowercased(),
              scheme == "http" || scheme == "https" || scheme == "file" && URL(string: pageURL)?.scheme?.lowercased() == "file" else {
            return .refused(reason: "a tab opens only http and https addresses (and file: from a file: page)")
        }
        return .opens(address: resolved.absoluteString)
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("url", .string(url))]
        for (name, flag) in [("active", active), ("insert", insert), ("setParent", setParent), ("incognito", incognito)] {
            if let flag { members.append((name, .bool(flag))) }
        }
        if closedByScript { members.append(("closedByScript", .bool(true))) }
        if let shownURL { members.append(("shownURL", .string(shownURL))) }
        if let title { members.append(("title", .string(title))) }
        if let notOpened { members.append(("notOpened", .string(notOpened))) }
        return .object(members)
    }

    /// The report line: `open in tab: URL`, with what the tab showed or why it was not opened.
    public var line: String {
        var line = "open in tab: \(url)"
        if let shownURL { line += " -> \(shownURL)" + (title.map { " (\($0))" } ?? "") + ", closed at the end of the run" }
        if let notOpened { line += ": not opened, \(notOpened)" } else if closedByScript, shownURL == nil { line += ": closed by the script" }
        return line
    }
}
