/// How PageScript starts a local browser: unseen (the default) or on the user's display, with a
/// throwaway profile (the default) or one that persists.
///
/// ```swift
/// let options = LaunchOptions(display: .user(":0"), profileDirectory: "/home/ada/.config/pagescript-chromium")
/// let engine = try await BrowserEngine.start(.chromium, options: options)
/// ```
public struct LaunchOptions: Sendable, Hashable {
    /// Where the browser's window goes.
    public enum Display: Sendable, Hashable {
        /// Nowhere anyone sees: Chromium headless, WebKit on a private X server.
        case hidden
        /// On this X display (the user's `$DISPLAY`), as a window the user can use.
        case user(String)
    }

    /// Where the browser's window goes.
    public var display: Display
    /// A browser profile folder that outlives the session (cookies, logins); `nil` for a
    /// throwaway profile removed when the engine stops. Chromium only: WebKit's automation
    /// sessions are always ephemeral.
    public var profileDirectory: String?

    public init(display: Display = .hidden, profileDirectory: String? = nil) {
        self.display = display
        self.profileDirectory = profileDirectory
    }
}
