import EditorSession
import Foundation
import PageRuntime
import SystemSupport
import TerminalUI
import UserScripts

/// `e` in `browse`: the terminal editor on the page the browser shows, in the same session, so
/// that the page the user edits for is the page they see. While the editor has the terminal,
/// browse's key reader and raw mode step aside and the editor handles the termination signals;
/// afterwards browse takes all three back and says how editing ended.
public final class BrowseEditing: @unchecked Sendable {
    private let view: BrowseTerminalView
    private let library: ScriptLibrary
    private let stop: OnceFlag
    // Guards `signals` and `endingSignal`, which makes @unchecked Sendable sound.
    private let lock = NSLock()
    private var signals: TerminationSignals
    private var endingSignal: Int32?
    private let installSignals: @Sendable () -> TerminationSignals

    /// Takes over `signals` (browse's termination handling), which it lends to the editor and
    /// installs again afterwards with `installSignals`; ``cancel()`` cancels whichever is installed.
    public init(view: BrowseTerminalView, library: ScriptLibrary, stop: OnceFlag, signals: TerminationSignals,
                installSignals: @escaping @Sendable () -> TerminationSignals) {
        self.view = view
        self.library = library
        self.stop = stop
        self.signals = signals
        self.installSignals = installSignals
    }

    /// The signal that ended an editor, which ends browse with it (exit status 128 + it).
    public var signal: Int32? {
        lock.withLock { endingSignal }
    }

    /// What the follower calls for ``BrowseRequest/editScript``.
    public var handler: BrowserFollower.Editing {
        { page, host in await self.edit(page, host: host) }
    }

    /// Stops handling termination signals.
    public func cancel() {
        lock.withLock { signals }.cancel()
    }

    /// Edits on `page` until the editor ends, then reports how; returns the addresses the
    /// editor's runs asked to open with `GM_openInTab`.
    @Sendable public func edit(_ page: PageSession, host: GMHost) async -> [String] {
        lock.withLock { signals }.cancel()
        let (ended, tookBack) = await view.handOver { () async -> Result<PageEditor.Ending, PageEditor.Failure> in
            do throws(PageEditor.Failure) {
                return .success(try await PageEditor.edit(borrowing: page, host: host, library: library))
            } catch {
                return .failure(error)
            }
        }
        let again = installSignals()
        lock.withLock { signals = again }
        let safe = TerminalSafeText.escaped
        var tabs: [String] = []
        switch ended {
        case let .failure(error):
            view.write(["  ✗ the editor could not open: \(safe(error.description))"])
        case let .success(ending):
            var lines: [String] = []
            let name = ending.outcome.document.map { "“\(safe($0.name))”" } ?? "the script"
            switch ending.outcome.reason {
            case .quit:
                lines.append("  ✎ back from the editor: \(name) \(ending.outcome.hasUnsavedChanges ? "has unsaved changes (not kept)" : "is saved")")
            case let .stopped(reason):
                lines.append("  ✎ the editor stopped: \(safe(reason))")
            case let .signal(number):
                end(with: number)
            case .terminalClosed:
                end(with: SIGHUP)
            }
            if let file = ending.recoveryFile {
                lines.append("  ✎ your unsaved script was kept in \(safe(file.path(percentEncoded: false)))")
            } else if let failure = ending.recoveryFailure {
                lines.append("  ✎ your unsaved script could not be kept: \(safe(failure))")
            }
            view.write(lines)
            tabs = ending.tabsToOpen
        }
        if !tookBack { end(with: SIGHUP) }
        return tabs
    }

    private func end(with signal: Int32) {
        lock.withLock { endingSignal = endingSignal ?? signal }
        _ = stop.claim()
    }
}
