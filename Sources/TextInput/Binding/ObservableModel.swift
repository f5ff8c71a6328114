/// A model object that reports changes to its properties.
///
/// ``FieldBinding`` needs to hear when the bound property changes, from code, from the
/// network, from another field, so that a field that is not being edited shows the new value.
/// Conform with a ``ChangeNotifier`` called from the properties' `didSet`:
///
/// ```swift
/// final class Order: ObservableModel {
///     private let changes = ChangeNotifier()
///     var quantity = 1 { didSet { changes.notifyChange() } }
///     var note: String? { didSet { changes.notifyChange() } }
///
///     func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken {
///         changes.observe(handler)
///     }
/// }
/// ```
///
/// A class using the Observation framework (`@Observable`) conforms with no code at all: the
/// default implementation tracks the one property with `withObservationTracking`.
public protocol ObservableModel: AnyObject {
    /// Calls `handler` after the property at `keyPath` changes, until the token ends it.
    ///
    /// The handler may run on any thread and for changes to other properties too: a
    /// binding re-reads its property and only acts when its text would differ.
    ///
    /// - Parameters:
    ///   - keyPath: The property a binding shows; an implementation may ignore it.
    ///   - handler: Called after a change, on whichever thread reports it.
    /// - Returns: A token that ends the observation when cancelled or released.
    @MainActor
    func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken
}
