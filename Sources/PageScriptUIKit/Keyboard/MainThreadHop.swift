#if canImport(UIKit)
import Foundation

/// Runs work on the main actor: at once when the caller is on the main thread, as it is for the
/// notifications UIKit posts, and on the main actor's next turn otherwise.
///
/// Notification callbacks are not isolated to any actor, so the compiler cannot know they run on
/// the main thread. Checking, rather than assuming, keeps a notification posted from another
/// thread (a test, a misbehaving library) from trapping in `MainActor.assumeIsolated`.
enum MainThreadHop {
    /// Runs `work` on the main actor, synchronously when already on the main thread.
    static func run(_ work: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated(work)
        } else {
            Task { @MainActor in work() }
        }
    }
}
#endif
