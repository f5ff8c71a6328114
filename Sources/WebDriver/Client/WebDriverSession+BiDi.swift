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
}
