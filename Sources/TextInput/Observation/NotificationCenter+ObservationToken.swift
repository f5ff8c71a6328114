import Foundation

extension NotificationCenter {
    /// Observes a notification for as long as the returned token lives.
    ///
    /// The block-based `addObserver(forName:object:queue:using:)` leaves removing the
    /// observer to the caller, which is easy to forget and impossible from a Swift extension
    /// (it has no `deinit`). Here the returned ``ObservationToken`` removes it when cancelled
    /// or released.
    ///
    /// Pass `object` to hear only that sender: a placeholder for one text view must not react
    /// to every text view in the window.
    ///
    /// ```swift
    /// let token = center.observe(textDidChange, object: textView) { _ in updatePlaceholder() }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The notification to observe.
    ///   - object: The only sender to hear, or `nil` for every sender. It is not retained.
    ///   - queue: Where `handler` runs; `nil` runs it synchronously on the posting thread.
    ///   - handler: Called with each notification.
    /// - Returns: A token that removes the observer when cancelled or released.
    public func observe(
        _ name: Notification.Name,
        object: AnyObject? = nil,
        queue: OperationQueue? = nil,
        using handler: @escaping @Sendable (Notification) -> Void
    ) -> TextInput.ObservationToken {
        let observer = RegisteredObserver(addObserver(forName: name, object: object, queue: queue, using: handler))
        // Spelled out because newer Foundations nest their own `ObservationToken` in this class.
        return TextInput.ObservationToken { [self] in
            removeObserver(observer.object)
        }
    }
}

/// The opaque observer object `NotificationCenter` hands back, carried to the token's action.
///
/// Unchecked because the object is never read or changed by us: it is only given back to
/// `removeObserver(_:)`, which `NotificationCenter` documents as safe from any thread.
private struct RegisteredObserver: @unchecked Sendable {
    let object: any NSObjectProtocol

    init(_ object: any NSObjectProtocol) {
        self.object = object
    }
}
