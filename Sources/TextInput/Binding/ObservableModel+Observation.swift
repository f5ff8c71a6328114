import Observation

extension ObservableModel where Self: Observable {
    /// Tracks the property at `keyPath` with the Observation framework.
    ///
    /// `withObservationTracking` reports a change once, before it is made; the tracking is
    /// re-armed on the main actor after each report, once the new value is in place. Like
    /// SwiftUI, this expects the model to change on the main actor: a change made on another
    /// thread while the report is being handled can be missed until the next one.
    ///
    /// - Parameters:
    ///   - keyPath: The property to track.
    ///   - handler: Called on the main actor after each change of the property.
    /// - Returns: A token that ends the tracking when cancelled or released.
    @MainActor
    public func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        let loop = ObservationTrackingLoop(read: { _ = self[keyPath: keyPath] }, handler: handler)
        // The token owns the loop: when it goes, the loop goes, and a report still on its
        // way finds nothing to call.
        let token = ObservationToken { withExtendedLifetime(loop) {} }
        loop.token = token
        loop.arm()
        return token
    }
}

/// Re-arms `withObservationTracking` after each change it reports.
@MainActor
final class ObservationTrackingLoop {
    private let read: () -> Void
    private let handler: @Sendable () -> Void
    weak var token: ObservationToken?

    init(read: @escaping () -> Void, handler: @escaping @Sendable () -> Void) {
        self.read = read
        self.handler = handler
    }

    func arm() {
        withObservationTracking(read) { [weak self] in
            // Reported from `willSet`, on the changing thread: the new value is not there
            // yet, so the handler runs later, on the main actor.
            Task { @MainActor in self?.fire() }
        }
    }

    private func fire() {
        guard let token, !token.isCancelled else { return }
        handler()
        arm()
    }
}
