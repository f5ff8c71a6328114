import Dispatch

/// Runs work on the main actor: at once when the caller is already there, soon otherwise.
///
/// Model changes are reported on whichever thread made them. A change made on the main actor
/// should reach its field before the caller's next line runs (an app that sets a property
/// and then reads the field expects to see the new text), and a change made elsewhere must
/// hop over. `Thread.isMainThread` cannot tell the two apart on Linux, where the main queue,
/// which is the main actor's executor, is drained by a worker thread once `dispatchMain()`
/// or an async `main` parks the main thread. A queue-specific value on the main queue can.
enum MainActorHop {
    /// The key of the main queue's marker, attached once by the thread-safe lazy
    /// initialisation of a static.
    private static let mainQueue: MainQueueMarker = {
        let marker = MainQueueMarker()
        DispatchQueue.main.setSpecific(key: marker.key, value: true)
        return marker
    }()

    /// Whether the caller runs on the main queue, and so on the main actor.
    static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: mainQueue.key) == true
    }

    /// Runs `work` on the main actor, synchronously when already there.
    static func run(_ work: @escaping @MainActor @Sendable () -> Void) {
        if isOnMainActor {
            MainActor.assumeIsolated(work)
        } else {
            Task { @MainActor in work() }
        }
    }
}
