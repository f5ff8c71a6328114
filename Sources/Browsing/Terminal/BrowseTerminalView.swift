import Foundation
import PageRuntime
import SystemSupport
import TerminalUI
import UserScripts

/// `browse` on a terminal: what happens, as lines a person reads (page text escaped), and keys
/// read one at a time in raw mode: `1`-`9` run the page's menu commands, `t` switches the page's
/// scripts off or on for its site, `e` opens the editor on the page, `q` (or Ctrl-C) ends browsing.
///
/// Raw mode stays on while the view is in use, except while the editor has the terminal
/// (``handOver(during:)``); ``restore()`` puts the terminal back, and so do `exit()` and a
/// termination signal (``RawMode``'s own restore, which the executable's signal handling calls).
public final class BrowseTerminalView: @unchecked Sendable {
    /// What the keys ask the follower to do.
    public let requests = BrowseRequests()
    // Guards everything below, shared by the follower's reports, the key reader and the editor's
    // hand-over, which makes @unchecked Sendable sound.
    private let lock = NSCondition()
    private var rawMode: RawMode?
    private var menu = BrowseMenu()
    /// Someone else wants the terminal's keys: the reader stops reading until it is `false` again.
    private var isHandedOver = false
    /// The reader has seen ``isHandedOver`` and reads no more.
    private var readerIsIdle = false
    /// The reader has ended (`q`, Ctrl-C, the end of input).
    private var readerEnded = false
    /// Questions about hosts scripts want to reach, waiting for a key; the first is on screen.
    private var questions: [(number: Int, question: ConnectQuestion, answer: CheckedContinuation<ConnectAnswer, Never>)] = []
    private var questionsAsked = 0

    /// How long a question waits for a key before the request is refused this once.
    public static let questionTimeout: Duration = .seconds(60)

    /// Switches the terminal to raw mode. Throws when standard input is not a terminal.
    public init() throws(TerminalError) {
        rawMode = try RawMode.enable(input: STDIN_FILENO, output: STDOUT_FILENO)
    }

    /// A live view on the terminal: raw mode, the keys shown, and a reader of them
    /// (``readKeys(until:)``) that claims `stop` when the person quits.
    ///
    /// - Parameter attached: Whether the browser is the person's own, which quitting leaves open.
    /// - Throws: When standard input is not a terminal.
    public static func start(attached: Bool, until stop: OnceFlag) throws(TerminalError) -> BrowseTerminalView {
        let view = try BrowseTerminalView()
        view.showKeys(attached: attached)
        view.readKeys(until: stop)
        return view
    }

    /// Puts the terminal back as it was from a signal's handler, where no lock may be taken (a
    /// no-op when no view has it in raw mode).
    public static func restoreAfterSignal() {
        RawMode.restoreAfterSignal()
    }

    /// Puts the terminal back as it was. Idempotent.
    public func restore() {
        lock.withLock { rawMode }?.restore()
    }

    /// Reads keys on a thread of its own until `q`, Ctrl-C, Ctrl-D or the end of input, which
    /// claim `stop`. It waits for input at most 50 ms at a time, so that it lets go of the
    /// terminal within that when the editor takes it.
    public func readKeys(until stop: OnceFlag) {
        let reader = Thread { [self] in
            defer {
                lock.withLock {
                    readerEnded = true
                    lock.broadcast()
                }
                _ = stop.claim()
            }
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                lock.withLock {
                    while isHandedOver {
                        readerIsIdle = true
                        lock.broadcast()
                        lock.wait()
                    }
                    readerIsIdle = false
                }
                var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiting, 1, 50)
                if ready < 0, errno == EINTR { continue }
                guard ready >= 0 else { return }
                if ready == 0 { continue }
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { return }
                // A function or arrow key arrives as one escape sequence, in one read: browse has no use for them.
                guard bytes[0] != 0x1B else { continue }
                for byte in bytes[..<count] where !handle(byte) {
                    return
                }
            }
        }
        reader.start()
    }

    /// Gives the terminal to `work` (the editor): the key reader stops reading, raw mode is
    /// switched off, and both come back once `work` returns.
    ///
    /// - Returns: `work`'s value, and whether browse could take the terminal back (it cannot
    ///   when the terminal went away meanwhile).
    public func handOver<Value>(during work: () async -> Value) async -> (value: Value, tookBack: Bool) {
        let mode = lock.withLock {
            isHandedOver = true
            while !readerIsIdle, !readerEnded { lock.wait() }
            defer { rawMode = nil }
            return rawMode
        }
        mode?.restore()
        let value = await work()
        let again = try? RawMode.enable(input: STDIN_FILENO, output: STDOUT_FILENO)
        lock.withLock {
            rawMode = again
            isHandedOver = false
            lock.broadcast()
        }
        return (value, again != nil)
    }

    /// Asks the person whether a script may reach a host its `@connect` lines do not name, as
    /// Tampermonkey asks (a ``PageRuntime/ConnectAsker``): `a` allows it for good, `o` for this
    /// session, `r` refuses it for good, `n` for this session; one question at a time, and no
    /// key within ``questionTimeout`` refuses it this once.
    @Sendable public func ask(_ question: ConnectQuestion) async -> ConnectAnswer {
        await withCheckedContinuation { (continuation: CheckedContinuation<ConnectAnswer, Never>) in
            let (number, isFirst) = lock.withLock { () -> (Int, Bool) in
                questionsAsked += 1
                questions.append((questionsAsked, question, continuation))
                return (questionsAsked, questions.count == 1)
            }
            if isFirst { show(question) }
            Task { [self] in
                try? await Task.sleep(for: Self.questionTimeout)
                answer(number: number, with: .refuseThisSession, note: "no answer: refused this time")
            }
        }
    }

    private func show(_ question: ConnectQuestion) {
        let safe = TerminalSafeText.escaped
        write(["  ? \(safe(question.scriptName)) wants to reach \(safe(question.host)) (GM_xmlhttpRequest to \(safe(question.url))), which its @connect lines do not name:",
               "    a allows it for good · o for this session · r refuses it for good · n for this session"])
    }

    /// Answers question `number` (the one on screen, when `nil`), if it still waits, and shows the next.
    private func answer(number: Int?, with answer: ConnectAnswer, note: String) {
        let (answered, next) = lock.withLock { () -> (CheckedContinuation<ConnectAnswer, Never>?, ConnectQuestion?) in
            guard let index = number.map({ number in questions.firstIndex { $0.number == number } }) ?? (questions.isEmpty ? nil : 0) else { return (nil, nil) }
            let taken = questions.remove(at: index)
            return (taken.answer, index == 0 ? questions.first?.question : nil)
        }
        guard let answered else { return }
        write(["    → \(note)"])
        answered.resume(returning: answer)
        if let next { show(next) }
    }

    /// Does what `byte` asks; `false` means stop.
    private func handle(_ byte: UInt8) -> Bool {
        let key = Character(Unicode.Scalar(byte))
        if lock.withLock({ !questions.isEmpty }) {
            switch key {
            case "a": answer(number: nil, with: .allowAlways, note: "allowed for good")
            case "o": answer(number: nil, with: .allowThisSession, note: "allowed for this session")
            case "r": answer(number: nil, with: .refuseAlways, note: "refused for good")
            case "n": answer(number: nil, with: .refuseThisSession, note: "refused for this session")
            default: break
            }
        }
        switch key {
        case "q", "Q", "\u{03}", "\u{04}":
            return false
        case "t", "T":
            requests.send(.toggleScriptsForSite)
        case "e", "E":
            write(["  … opening the editor on this page"])
            requests.send(.editScript)
        default:
            if let request = lock.withLock({ menu.request(forKey: key) }) { requests.send(request) }
        }
        return true
    }

    /// The first lines: which keys do what.
    public func showKeys(attached: Bool) {
        write(["keys: 1-9 run a page's menu command · t switches this page's scripts off/on for its site · e edits its script · q quits"
               + (attached ? " (your browser stays open)" : "")])
    }

    /// Shows one event.
    @Sendable public func show(_ event: BrowseEvent) {
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
        case let .laterOutput(_, output):
            write(output.flatMap(ReportRenderer.lines(of:)).map { "      " + $0 })
        case let .laterOutputInBackground(url, output):
            // Not the page in front: the lines say which tab's page they came from.
            let lines = output.flatMap(ReportRenderer.lines(of:))
            if !lines.isEmpty { write(["  ◦ later, in the background tab <\(safe(url))>:"] + lines.map { "      " + $0 }) }
        case let .addressChanged(url, title):
            write(["▸ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>  (same document)"])
        case let .keptDocumentShown(url, title, results):
            lock.withLock {
                menu.clear()
                menu.add(results)
            }
            write(["", "▸ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>  (kept by the browser; its scripts ran when it was first shown)"])
        case let .ran(_, results):
            let keys = lock.withLock { menu.add(results) }
            write(Self.lines(of: results) { entry in
                keys.filter { $0.script.id == entry.script.id }.map { "      [\($0.key)] \(safe($0.name))" }
            })
        case let .ranInBackground(url, title, results):
            // Not the page in front: its menu commands get keys if browse comes to its tab.
            write(["", "◦ \(title.isEmpty ? "(untitled)" : safe(title))  <\(safe(url))>  (a tab in the background)"]
                  + Self.lines(of: results) { _ in [] })
        case let .switchedOff(_, scripts):
            write(["  ○ off for this site: \(scripts.map { safe($0.name) }.joined(separator: ", ")) (t switches them on)"])
        case let .failed(_, error):
            write(["  ✗ \(safe(error.description))"])
        case let .documentStartUnavailable(reason):
            write(["  ! document-start scripts will run after each page has loaded: \(safe(reason))"])
        case let .savesNotFollowed(reason):
            write(["  ! saves are not followed: \(safe(reason))"])
        case let .notificationsNotShown(reason):
            write(["  ! notifications are reported, not shown: \(safe(reason))"])
        case let .clipboardNotSet(reason):
            write(["  ! the clipboard is reported, not set: \(safe(reason))"])
        case let .scriptSaved(file, save):
            write([Self.line(ofSave: save, file: safe(file))])
        case let .menuCommandRan(_, script, name, outcome):
            var lines = ["  ▹ \(safe(script.name)): \(safe(name))"]
            switch outcome {
            case let .success(result): lines += ReportRenderer.detailLines(of: result, menuCommands: .omitted).map { "      " + $0 }
            case let .failure(error): lines.append("      \(safe(error.description))")
            }
            write(lines)
        case let .siteSwitched(_, site, scripts, isOn):
            let names = scripts.map { safe($0.name) }.joined(separator: ", ")
            write([scripts.isEmpty ? "  no library script matches this page"
                   : "  \(names): \(isOn ? "on again" : "off") for \(safe(site.description))"])
        }
    }

    /// The line that shows a save of the library's `file` (escaped already).
    static func line(ofSave save: ScriptSave, file: String) -> String {
        let safe = TerminalSafeText.escaped
        switch save {
        case let .reloading(script, _): return "  ✎ \(safe(script.name)) saved (\(file)): reloading the page"
        case let .notOnThisPage(script): return "  ✎ \(safe(script.name)) saved (\(file)): it runs on no page shown now"
        case let .unusable(problems):
            return "  ✗ \(file) saved, not used: \(safe(problems.joined(separator: "; "))); the version before keeps running"
        case .removed: return "  ✎ \(file) removed"
        }
    }

    /// The lines that show scripts' results (`✓` with the value, `✗` with the error, the console
    /// lines under them), each script's followed by `extra(script)`. Page text is escaped.
    static func lines(of results: [LibraryScriptResult], extra: (LibraryScriptResult) -> [String]) -> [String] {
        let safe = TerminalSafeText.escaped
        return results.flatMap { entry -> [String] in
            let name = safe(entry.script.name) + (entry.frame.map { " (in the frame <\(safe($0))>)" } ?? "")
            var lines: [String]
            switch entry.outcome {
            case let .success(result):
                lines = [result.error == nil ? "  ✓ \(name)" + (result.value.map { " → " + safe($0.serialized) } ?? "") : "  ✗ \(name)"]
                lines += ReportRenderer.detailLines(of: result, menuCommands: .omitted).map { "      " + $0 }
            case let .failure(error):
                lines = ["  ✗ \(name): \(safe(error.description))"]
            }
            return lines + extra(entry)
        }
    }

    /// Writes lines; raw mode does not turn a line feed into a new line, so each ends in CR LF.
    public func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        StandardStream.output.write(lines.map { $0 + "\r\n" }.joined())
    }
}
