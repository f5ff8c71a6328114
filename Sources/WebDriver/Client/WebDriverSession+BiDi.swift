import Foundation
import SystemSupport

extension WebDriverSession {
    /// Whether the endpoint offers this session WebDriver BiDi: it was asked for with
    /// `webSocketUrl: true` and the reply names the WebSocket.
    public var offersBiDi: Bool {
        capabilities["webSocketUrl"]?.stringValue.flatMap(URL.init(string:)) != nil
    }

    /// The session's WebDriver BiDi connection, made on first use and shared by every caller;
    /// closed by ``delete(timeout:)``.
    ///
    /// - Throws: ``BiDiError/unreachable(url:reason:)`` when the session offers none or it cannot
    ///   be reached.
    public func bidi(timeout: Double = 10) async throws(BiDiError) -> BiDiConnection {
        guard let text = capabilities["webSocketUrl"]?.stringValue, let url = URL(string: text) else {
            throw .unreachable(url: "", reason: "the session offers no WebDriver BiDi (no webSocketUrl)")
        }
        let opening = bidiConnection.withLockedValue { opened in
            if let opened { return opened }
            let task = Task { () -> Result<BiDiConnection, BiDiError> in
                do throws(BiDiError) {
                    return .success(try await BiDiConnection.connect(to: url, timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            opened = task
            return task
        }
        return try await opening.value.get()
    }

    /// Subscribes to the navigations of the session's window (``BiDiNavigationRecord``); without
    /// a connection or a subscription within `timeout`, navigations go unrecorded, as on an
    /// endpoint that offers no BiDi.
    func followNavigationsThroughBiDi(timeout: Double) async {
        guard let window = try? await windowHandle(timeout: timeout), let connection = try? await bidi(timeout: timeout) else { return }
        let record = BiDiNavigationRecord(context: window)
        connection.onEvent { record.received($0, $1) }
        let subscription: JSONValue = ["events": .array(BiDiNavigationRecord.events.map { .string($0) }), "contexts": [.string(window)]]
        guard (try? await connection.send("session.subscribe", parameters: subscription, timeout: timeout)) != nil else { return }
        bidiNavigation.withLockedValue { $0 = record }
    }
}
