import Foundation

/// A list of change handlers that a model calls when one of its properties changes.
///
/// The building block for ``ObservableModel``: a model keeps one notifier, calls
/// ``notifyChange()`` from its properties' `didSet`, and answers
/// ``ObservableModel/observeChanges(_:)`` with ``observe(_:)``.
///
/// ```swift
/// final class Order: ObservableModel {
///     private let changes = ChangeNotifier()
///     var quantity = 1 { didSet { changes.notifyChange() } }
///     func observeChanges(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
///         changes.observe(handler)
///     }
/// }
/// ```
///
/// Handlers run synchronously on the thread that changed the model, outside the notifier's
/// lock, so a handler may change the model again or stop observing.
public final class ChangeNotifier: @unchecked Sendable {
    // Unchecked because `handlers` and `nextID` are only touched under `lock`.
    private let lock = NSLock()
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextID = 0

    /// Creates a notifier with no handlers.
    public init() {}

    /// Adds a handler, called after each change until the returned token ends it.
    ///
    /// - Parameter handler: Called on the thread that reports the change.
    /// - Returns: A token that removes the handler when cancelled or released.
    public func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        let id = lock.withLock {
            let id = nextID
            nextID += 1
            handlers[id] = handler
            return id
        }
        return ObservationToken { [weak self] in
            guard let self else { return }
            _ = lock.withLock { handlers.removeValue(forKey: id) }
        }
    }

    /// Calls every current handler; call it after a property changed.
    public func notifyChange() {
        let current = lock.withLock { Array(handlers.values) }
        for handler in current {
            handler()
        }
    }
}
