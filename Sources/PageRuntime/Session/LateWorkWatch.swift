import NIOConcurrencyHelpers

/// A wait for late userscript work kept in place in one document
/// (``PageSession/watchLateUserScriptWork(waitingAtMost:)``): whether it still runs, and a way to
/// end it.
public final class LateWorkWatch: Sendable {
    /// The document's runtime it waits in.
    public let runtime: PageSession.InstalledRuntime
    private let ended = NIOLockedValueBox(false)
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(runtime: PageSession.InstalledRuntime) {
        self.runtime = runtime
    }

    /// Whether it still waits: not stopped, and the document neither left nor gone.
    public var isRunning: Bool {
        !ended.withLockedValue { $0 }
    }

    /// Ends it: no wait is sent any more, and what the ones still in the page hand over (the last
    /// one ends by its time, or as another watch's wait arrives) is done all the same.
    public func stop() {
        task.withLockedValue { $0?.cancel() }
    }

    /// The document is gone (or no answer can reach it any more): no wait is sent any more, and
    /// the watch no longer runs, though the waits still out are being served.
    func documentIsGone() {
        ended.withLockedValue { $0 = true }
    }

    /// What the watch's loop hears: a wait ended (with its reply, `nil` when the document is
    /// gone), or half of a wait's time is up.
    enum Event: Sendable {
        case ended(Int, RuntimeReply?)
        case halfTime(Int)
    }

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLockedValue { task in
            task = Task {
                await body()
                self.ended.withLockedValue { $0 = true }
            }
        }
    }
}
