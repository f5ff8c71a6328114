import Foundation

/// Ownership of an observation: releasing the token ends it.
///
/// An observation (of a notification, of a model) runs for as long as its token is alive.
/// Keep the token in a property of the object the observation serves, and the observation
/// ends when that object goes away, with no `deinit` to write and no observer to forget.
/// This is what the notification proxy of a `UITextView` placeholder does: it ties the
/// observer's lifetime to the view.
///
/// ```swift
/// final class Editor {
///     private var textChanges: ObservationToken?
///     init(center: NotificationCenter, textView: AnyObject) {
///         textChanges = center.observe(textDidChange, object: textView) { _ in ... }
///     }
/// }
/// ```
///
/// ``cancel()`` can be called any number of times, from any thread, also concurrently: the
/// ending action runs exactly once. It runs outside the token's lock, so it may itself post
/// notifications or touch other tokens without deadlocking.
public final class ObservationToken: @unchecked Sendable {
    // Unchecked because the one mutable property is only touched under `lock`.
    private let lock = NSLock()
    private var onCancel: (@Sendable () -> Void)?

    /// Creates a token that runs `onCancel` once, when cancelled or released.
    ///
    /// - Parameter onCancel: Ends the observation, e.g. removes an observer.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    deinit {
        cancel()
    }

    /// Whether the observation has ended.
    public var isCancelled: Bool {
        lock.withLock { onCancel == nil }
    }

    /// Ends the observation now; later calls do nothing.
    public func cancel() {
        let action = lock.withLock {
            let action = onCancel
            onCancel = nil
            return action
        }
        action?()
    }
}
