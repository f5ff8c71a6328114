import Foundation
import TerminalUI

/// Carries what the page side reports by itself (a script's `GM_setClipboard`, say) to the editor,
/// which is made after the host that reports it.
///
/// Notices sent before ``attach(_:)`` are dropped: nothing runs before the editor exists.
final class EditorNoticeRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var app: EditorApp?

    init() {}

    /// From now on, notices go to `app`.
    func attach(_ app: EditorApp) {
        lock.withLock { self.app = app }
    }

    /// Tells the editor, if there is one yet.
    func send(_ notice: EditorNotice) {
        lock.withLock { app }?.notify(notice)
    }
}
