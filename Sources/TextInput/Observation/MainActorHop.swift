import Dispatch

/// Runs work on the main actor: at once when the caller is already there, soon otherwise.
///
/// Model changes and system notifications (the keyboard's) are reported on whichever thread
/// made them. One that arrives on the main actor should take effect before the caller's next
/// line runs (an app that sets a property and then reads the field expects to see the new
/// text), and one from elsewhere must hop over; checking, rather than assuming, also keeps a
/// notification posted from another thread from trapping in `MainActor.assumeIsolated`.
/// `Thread.isMainThread` cannot tell the two apart on Linux, where the main queue, which is
/// the main actor's executor, is drained by a worker thread once `dispatchMain()` or an async
/// `main` parks the main thread. A queue-specific value on the main queue can, on every
/// platform. `FieldBinding` and PageScriptUIKit's keyboard avoider use it.
///
/// ```swift
/// MainActorHop.run { [weak self] in self?.modelDidChange() }
/// ```
package enum MainActorHop {
    /// The key of the main queue's marker, attached once by the thread-safe lazy
    /// initialisation of a static.
    private static let mainQueue: MainQueueMarker = {
        let marker = MainQueueMarker()
        DispatchQueue.main.setSpecific(key: marker.key, value: true)
        return marker
    }()

    /// Whether the caller runs on the main queue, and so on the main actor.
    package static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: mainQueue.key) == true
    }

    /// Runs `work` on the main actor, synchronously when already there.
    package static func run(_ work: @escaping @MainActor @Sendable () -> Void) {
        if isOnMainActor {
            MainActor.assumeIsolated(work)
        } else {
            Task { @MainActor in work() }
        }
    }
}

/// The queue-specific key that marks the main queue for ``MainActorHop``.
///
/// Unchecked because the key is immutable and only ever passed to Dispatch, which is
/// thread-safe; not every platform's Dispatch declares the key type `Sendable`.
struct MainQueueMarker: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
