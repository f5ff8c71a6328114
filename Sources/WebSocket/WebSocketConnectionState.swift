import NIOConcurrencyHelpers

/// What the client object (any thread) and its frame handler (the channel's event loop) share
/// about one connection: how it ended, the close handshake, and the pings awaiting a pong.
final class WebSocketConnectionState: Sendable {
    struct Values {
        var closure: WebSocketClosure?
        var closeFrameSent = false
        var peerClose: (code: UInt16?, reason: String)?
        var failure: WebSocketClosure?
        var pingWaiters: [UInt64: CheckedContinuation<Result<Void, WebSocketError>, Never>] = [:]
        var nextPingNumber: UInt64 = 1
        var closeReported = false
    }

    let values = NIOLockedValueBox(Values())
    let maximumMessageSize: Int
    let onMessage: @Sendable (WebSocketMessage) -> Void
    let onClose: @Sendable (WebSocketClosure) -> Void

    init(
        maximumMessageSize: Int,
        onMessage: @escaping @Sendable (WebSocketMessage) -> Void,
        onClose: @escaping @Sendable (WebSocketClosure) -> Void
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.onMessage = onMessage
        self.onClose = onClose
    }

    /// How the connection ended, or `nil` while it is open (or closing but not closed locally).
    var closure: WebSocketClosure? {
        values.withLockedValue { $0.closure }
    }

    /// Marks the end of the connection once the socket is gone, fails waiting pings and reports
    /// the reason to `onClose`, exactly once.
    func connectionEnded() {
        let (closure, waiters, report) = values.withLockedValue { values in
            let closure = values.closure ?? values.failure
                ?? values.peerClose.map { WebSocketClosure.closedByPeer(code: $0.code, reason: $0.reason) }
                ?? .connectionLost(reason: "the connection ended without a close handshake")
            values.closure = closure
            let waiters = values.pingWaiters
            values.pingWaiters = [:]
            let report = !values.closeReported
            values.closeReported = true
            return (closure, waiters, report)
        }
        for waiter in waiters.values {
            waiter.resume(returning: .failure(.closed(closure)))
        }
        if report { onClose(closure) }
    }
}
