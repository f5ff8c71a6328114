import Foundation
import SystemSupport
import WebDriver

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
        try await screenshot(format: .png, fullPage: false)
    }

    /// The page as the browser draws it now, in `format`, of the viewport or with `fullPage` of
    /// the whole scrollable page. JPEG, WebP and the whole page come from Chromium's
    /// `Page.captureScreenshot` (WebDriver's screenshot command is PNG of the viewport only), a
    /// whole page as PNG also from geckodriver's own command; ``ScreenshotRequest`` refuses the
    /// rest for other engines before a run starts.
    ///
    /// ```swift
    /// let jpeg = try await page.screenshot(format: .jpeg, fullPage: true)
    /// ```
    public func screenshot(format: ScreenshotRequest.Format, fullPage: Bool) async throws(InjectionError) -> [UInt8] {
        // A page that broke requestAnimationFrame and setTimeout only makes this wait fail.
        _ = try? await session.executeAsyncScript(Self.nextPaint, timeout: 2)
        let timeout = scriptTimeout + Self.transportMargin
        let session = self.session
        guard format != .png || fullPage else {
            return try await Self.driverCall { () throws(WebDriverError) in try await session.screenshot(timeout: timeout) }
        }
        if format == .png, session.offersFullPageScreenshot {
            return try await Self.driverCall { () throws(WebDriverError) in try await session.fullPageScreenshot(timeout: timeout) }
        }
        guard session.offersChromeDevTools else {
            throw .library("this browser takes screenshots only as PNG of the viewport: JPEG, WebP and --full-page need Chromium's DevTools")
        }
        var parameters: [(key: String, value: JSONValue)] = [(key: "format", value: .string(format.rawValue))]
        if fullPage {
            let metrics = try await Self.driverCall { () throws(WebDriverError) in try await session.chromeDevTools("Page.getLayoutMetrics", timeout: timeout) }
            let size = metrics["cssContentSize"] ?? metrics["contentSize"]
            guard let width = size?["width"].flatMap(Self.number), let height = size?["height"].flatMap(Self.number) else {
                throw .malformedReply(reason: "Page.getLayoutMetrics gave no content size")
            }
            let clip: JSONValue = ["x": .integer(0), "y": .integer(0), "width": .number(width.rounded(.up)),
                                   "height": .number(height.rounded(.up)), "scale": .integer(1)]
            parameters += [(key: "captureBeyondViewport", value: .bool(true)), (key: "clip", value: clip)]
        }
        let request = JSONValue.object(parameters)
        let reply = try await Self.driverCall { () throws(WebDriverError) in
            try await session.chromeDevTools("Page.captureScreenshot", parameters: request, timeout: timeout)
        }
        guard let text = reply["data"]?.stringValue, let bytes = Data(base64Encoded: text) else {
            throw .malformedReply(reason: "Page.captureScreenshot gave no picture")
        }
        return Array(bytes)
    }

    private static func driverCall<T>(_ call: () async throws(WebDriverError) -> T) async throws(InjectionError) -> T {
        do {
            return try await call()
        } catch {
            throw .webDriver(error)
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case let .integer(number): Double(number)
        case let .number(number): number
        default: nil
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
