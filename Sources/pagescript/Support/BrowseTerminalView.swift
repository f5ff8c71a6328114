import Browsing
import Foundation
import Injection
import SystemSupport
import TerminalText
import TerminalUI
import UserScripts

/// `browse` on a terminal: what happens, as lines a person reads (page text escaped), and keys
/// read one at a time in raw mode: `1`-`9` run the page's menu commands, `t` switches the page's
/// scripts off or on for its site, `q` (or Ctrl-C) ends browsing.
///
/// Raw mode stays on while the view is in use; ``restore()`` puts the terminal back, and so do
/// `exit()` and a termination signal (``RawMode``'s own restore, called by ``Interruption``).
final class BrowseTerminalView: @unchecked Sendable {
    /// What the keys ask the follower to do.
    let requests = BrowseRequests()
    private let rawMode: RawMode
    // Guards `menu`, shared by the follower's reports and the key reader, which makes
    // @unchecked Sendable sound.
    private let lock = NSLock()
    private var menu = BrowseMenu()

    /// Switches the terminal to raw mode. Throws when standard input is not a terminal.
    init() throws(TerminalError) {
        rawMode = try RawMode.enable(input: STDIN_FILENO, output: STDOUT_FILENO)
    }

    /// Puts the terminal back as it was. Idempotent.
    func restore() {
        rawMode.restore()
    }

    /// Reads keys on a thread of its own until `q`, Ctrl-C, Ctrl-D or the end of input, which
    /// claim `stop`.
    func readKeys(until stop: OnceFlag) {
        let reader = Thread { [self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                // A function or arrow key arrives as one escape sequence, in one read: browse has no use for them.
                guard bytes[0] != 0x1B else { continue }
                for byte in bytes[..<count] where !handle(byte) {
                    _ = stop.claim()
                    return
                }
            }
            _ = stop.claim()
        }
        reader.start()
    }

    /// Does what `byte` asks; `false` means stop.
    private func handle(_ byte: UInt8) -> Bool {
        let key = Character(Unicode.Scalar(byte))
        switch key {
        case "q", "Q", "\u{03}", "\u{04}":
            return false
        case "t", "T":
            requests.send(.toggleScriptsForSite)
        default:
            if let request = lock.withLock({ menu.request(forKey: key) }) { requests.send(request) }
        }
        return true
    }

    /// The first lines: which keys do what.
    func showKeys(attached: Bool) {
        write(["keys: 1-9 run a page's menu command · t switches this page's scripts off/on for its site · q quits"
               + (attached ? " (your browser stays open)" : "")])
    }

    /// Shows one event.
    @Sendable func show(_ event: BrowseEvent) {
        let safe = TerminalSafeText.escaped
        switch event {
        case let .newDocument(url, title):
            lock.withLock { menu.clear() }
            write(["", "▸ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>"])
        case let .windowChanged(url, title):
            lock.withLock { menu.clear() }
            write(["", "▸ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>  (another window; its scripts ran when it was shown)"])
        case let .tabOpened(url):
            write(["  ↗ GM_openInTab \(safe(url)): a new tab, followed from now on"])
        case let .addressChanged(url, title):
            write(["▸ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>  (same document)"])
        case let .ran(_, results):
            let keys = lock.withLock { menu.add(results) }
            write(results.flatMap { entry -> [String] in
                let name = safe(entry.script.name)
                var lines: [String]
                switch entry.outcome {
                case let .success(result):
                    lines = [result.error == nil ? "  ✓ \(name)" + (result.value.map { " → " + safe($0.serialized) } ?? "") : "  ✗ \(name)"]
                    lines += ResultPrinter.detailLines(of: result, listingMenuCommands: false).map { "      " + $0 }
                case let .failure(error):
                    lines = ["  ✗ \(name): \(safe(error.description))"]
                }
                return lines + keys.filter { $0.script.id == entry.script.id }.map { "      [\($0.key)] \(safe($0.name))" }
            })
        case let .switchedOff(_, scripts):
            write(["  ○ off for this site: \(scripts.map { safe($0.name) }.joined(separator: ", ")) (t switches them on)"])
        case let .failed(_, error):
            write(["  ✗ \(safe(error.description))"])
        case let .documentStartUnavailable(reason):
            write(["  ! document-start scripts will run after each page has loaded: \(safe(reason))"])
        case let .menuCommandRan(_, script, name, outcome):
            var lines = ["  ▹ \(safe(script.name)): \(safe(name))"]
            switch outcome {
            case let .success(result): lines += ResultPrinter.detailLines(of: result, listingMenuCommands: false).map { "      " + $0 }
            case let .failure(error): lines.append("      \(safe(error.description))")
            }
            write(lines)
        case let .siteSwitched(_, site, scripts, isOn):
            let names = scripts.map { safe($0.name) }.joined(separator: ", ")
            write([scripts.isEmpty ? "  no library script matches this page"
                   : "  \(names): \(isOn ? "on again" : "off") for \(safe(site.description))"])
        }
    }

    /// Writes lines; raw mode does not turn a line feed into a new line, so each ends in CR LF.
    private func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        StandardStream.output.write(lines.map { $0 + "\r\n" }.joined())
    }
}
