import Observation

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
