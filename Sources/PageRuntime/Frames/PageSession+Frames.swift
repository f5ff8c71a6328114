import Foundation
import SystemSupport
import WebDriver

extension PageSession {
    /// The most frames of one page that scripts run in, and how deep (the page's own frames are
    /// 1 deep): a page cannot make a run go on and on by nesting frames.
    public static let frameLimit = 32
    public static let frameDepthLimit = 4

    /// What ``visitFrames(_:)`` found it could do.
    public enum FrameReach: Sendable, Equatable {
        /// Every frame was visited (possibly none).
        case visited
        /// Frames cannot be reached on this page's engine or endpoint, and why.
        case unreachable(String)
    }

    /// Calls `visit` with a session on each frame of the page, same-origin or not, depth-first in
    /// document order, at most ``frameLimit`` frames and ``frameDepthLimit`` deep. Each session
    /// reads its frame's own address (``browserURL()``) and runs scripts there as this one does on
    /// the page, with nothing of the frame's page trusted for either.
    ///
    /// On Chromium on this machine, each frame is reached through DevTools (its main world, or its
    /// own target for a frame on another site); on an endpoint whose driver evaluates outside the
    /// page (WebKit's), by switching the WebDriver session into the frame, and back to the top
    /// afterwards. Elsewhere (chromedriver without DevTools, which compiles calls with the page's
    /// own `Function`) frames are not visited, and ``FrameReach/unreachable(_:)`` says why.
    ///
    /// ```swift
    /// _ = try await page.visitFrames { depth, frame in
    ///     let address = try await frame.browserURL()
    ///     let result = try await frame.run(script: "document.title", requiredURL: address)
    /// }
    /// ```
    public func visitFrames(_ visit: (_ depth: Int, _ frame: PageSession) async throws(InjectionError) -> Void) async throws(InjectionError) -> FrameReach {
        if route != nil { return .unreachable("frames of a tab in the background are not visited") }
        if let direct {
            let reached = try await direct.visitFrames(limit: Self.frameLimit, maxDepth: Self.frameDepthLimit) { depth, route throws(InjectionError) in
                try await visit(depth, PageSession(session: session, scriptTimeout: scriptTimeout, dialogs: dialogs,
                                                   bypassesContentSecurityPolicy: bypassesContentSecurityPolicy, route: route))
            }
            return reached ? .visited : .unreachable("Chromium's DevTools did not answer for this window, so its frames were not visited")
        }
        if transport.sendsDevToolsCommands || transport.exposesCallsToPage != nil {
            return .unreachable("frames are reached through DevTools on Chromium, and this endpoint passes none on")
        }
        var visited = 0
        do {
            try await visitDriverFrames(depth: 1, visited: &visited, visit)
        } catch {
            try? await session.switchToTopFrame(timeout: scriptTimeout)
            throw error
        }
        do {
            try await session.switchToTopFrame(timeout: scriptTimeout)
        } catch {
            throw .webDriver(error)
        }
        return .visited
    }

    /// The frames of the browsing context the driver is in now, and theirs.
    private func visitDriverFrames(depth: Int, visited: inout Int,
                                   _ visit: (Int, PageSession) async throws(InjectionError) -> Void) async throws(InjectionError) {
        guard depth <= Self.frameDepthLimit else { return }
        let frames: [JSONValue]
        do {
            frames = try await session.findElements(css: "iframe, frame", timeout: scriptTimeout)
        } catch {
            throw .webDriver(error)
        }
        for frame in frames where visited < Self.frameLimit {
            // A frame removed since it was found is passed over.
            guard (try? await session.switchToFrame(frame, timeout: scriptTimeout)) != nil else { continue }
            visited += 1
            try await visit(depth, PageSession(driverFrameOf: self))
            try await visitDriverFrames(depth: depth + 1, visited: &visited, visit)
            do {
                try await session.switchToParentFrame(timeout: scriptTimeout)
            } catch {
                throw .webDriver(error)
            }
        }
    }
}
