extension PageSession {
    /// The page as the browser draws it now, as PNG bytes (WebDriver's screenshot command: the
    /// viewport of the top-level page).
    ///
    /// ```swift
    /// _ = try await page.run(script: "document.body.style.background = 'gold'")
    /// let png = try await page.screenshot()
    /// ```
    ///
    /// What a script just changed is drawn first: the call waits for the page's next two
    /// animation frames (at most 250 ms, by a timer), since WebKit's driver takes the picture from
    /// the last frame it painted, which right after a script can still be the one before it.
    public func screenshot() async throws(InjectionError) -> [UInt8] {
        // A page that broke requestAnimationFrame and setTimeout only makes this wait fail.
        _ = try? await session.executeAsyncScript(Self.nextPaint, timeout: 2)
        do {
            return try await session.screenshot(timeout: scriptTimeout + Self.transportMargin)
        } catch {
            throw .webDriver(error)
        }
    }

    /// Calls back after two animation frames, or after 250 ms when frames do not come.
    private static let nextPaint = """
        var done = arguments[arguments.length - 1], called = false;
        function finish() { if (!called) { called = true; done(null); } }
        setTimeout(finish, 250);
        requestAnimationFrame(function () { requestAnimationFrame(finish); });
        """
}
