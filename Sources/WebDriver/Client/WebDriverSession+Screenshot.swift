import Foundation

extension WebDriverSession {
    /// `GET /session/{id}/screenshot`: the top-level browsing context's viewport as PNG bytes.
    ///
    /// ```swift
    /// let png = try await session.screenshot()
    /// try Data(png).write(to: URL(fileURLWithPath: "page.png"), options: .atomic)
    /// ```
    public func screenshot(timeout: Double? = nil) async throws(WebDriverError) -> [UInt8] {
        let value = try await command(.GET, "/screenshot", body: nil, name: "take screenshot", timeout: timeout)
        guard let text = value.stringValue, let bytes = Data(base64Encoded: text) else {
            throw .malformedReply(command: "take screenshot", reason: "not a base64 string")
        }
        return Array(bytes)
    }

    /// Whether the session is geckodriver's, which also pictures a whole page
    /// (``fullPageScreenshot(timeout:)``).
    public var offersFullPageScreenshot: Bool {
        capabilities["moz:geckodriverVersion"] != nil
    }

    /// geckodriver's `GET /session/{id}/moz/screenshot/full`: the whole scrollable page of the
    /// top-level browsing context as PNG bytes.
    public func fullPageScreenshot(timeout: Double? = nil) async throws(WebDriverError) -> [UInt8] {
        let value = try await command(.GET, "/moz/screenshot/full", body: nil, name: "take full page screenshot", timeout: timeout)
        guard let text = value.stringValue, let bytes = Data(base64Encoded: text) else {
            throw .malformedReply(command: "take full page screenshot", reason: "not a base64 string")
        }
        return Array(bytes)
    }
}
