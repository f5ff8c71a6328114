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

    /// Ends it after the wait in progress (at most the wait's length).
    public func stop() {
        task.withLockedValue { $0?.cancel() }
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
