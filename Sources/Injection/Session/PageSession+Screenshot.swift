extension PageSession {
    /// The page as the browser draws it now, as PNG bytes (WebDriver's screenshot command: the
    /// viewport of the top-level page).
    ///
    /// ```swift
    /// _ = try await page.run(script: "document.body.style.background = 'gold'")
    /// let png = try await page.screenshot()
    /// ```
    public func screenshot() async throws(InjectionError) -> [UInt8] {
        do {
            return try await session.screenshot(timeout: scriptTimeout + Self.transportMargin)
        } catch {
            throw .webDriver(error)
        }
    }
}
