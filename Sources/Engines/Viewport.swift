import SystemSupport
import WebDriver

/// The area a page is drawn in, in CSS pixels: what the page sees as `innerWidth` and
/// `innerHeight`, and what a screenshot pictures. Given (`--viewport`), it is the same on every
/// engine PageScript starts, so that a page lays itself out alike on WebKit and Chromium.
///
/// ```swift
/// let viewport = Viewport("1920x1080")   // Viewport(width: 1920, height: 1080)
/// try await session.fit(viewport!, timeout: 10)
/// ```
public struct Viewport: Sendable, Hashable, CustomStringConvertible {
    /// The width, `innerWidth`.
    public let width: Int
    /// The height, `innerHeight`.
    public let height: Int

    /// The sizes PageScript accepts, on either side.
    public static let sides = 100...10_000

    /// What a page gets when no viewport is asked for, on every engine PageScript starts hidden:
    /// WebKit's MiniBrowser window without its header bar
    /// (``WebKitLauncher/hiddenBrowserArguments``), and a headless Chromium window sized to give
    /// the same (``ChromiumLauncher/arguments(headless:takesScreenshots:language:)``). Neither
    /// costs a resize: resizing WebKit's window slows a session's first load. A visible browser
    /// keeps the window the engine opens.
    public static let standard = Viewport(width: 1024, height: 768)

    /// A viewport of `width` by `height` CSS pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT` (`1280x800`), each side within ``sides``; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let width = Int(parts[0]), let height = Int(parts[1]), Self.sides.contains(width), Self.sides.contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    /// `1280x800`.
    public var description: String { "\(width)x\(height)" }
}

extension WebDriverSession {
    /// Sizes the session's window so that its page gets `viewport`: the window's frame (toolbars,
    /// the headless window's stand-in for them) differs between engines and displays, so the
    /// page's size is read first and the window made larger by the difference. Nothing changes
    /// when the page has that size already.
    public func fit(_ viewport: Viewport, timeout: Double) async throws(WebDriverError) {
        let inner = try await executeScript("return [innerWidth, innerHeight]", timeout: timeout)
        guard let sides = inner.arrayValue, sides.count == 2, let width = sides[0].intValue, let height = sides[1].intValue else {
            throw .malformedReply(command: "execute script", reason: "the page's size is not two numbers")
        }
        guard width != viewport.width || height != viewport.height else { return }
        let rect = try await command(.GET, "/window/rect", body: nil, name: "get window rect", timeout: timeout)
        guard let outerWidth = rect["width"]?.intValue, let outerHeight = rect["height"]?.intValue else {
            throw .malformedReply(command: "get window rect", reason: "no width and height")
        }
        let size: JSONValue = [
            "width": .integer(Int64(outerWidth + viewport.width - width)),
            "height": .integer(Int64(outerHeight + viewport.height - height)),
        ]
        _ = try await command(.POST, "/window/rect", body: size, name: "set window rect", timeout: timeout)
    }
}
