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
}
