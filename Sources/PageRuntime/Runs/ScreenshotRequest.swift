import Engines
import Foundation

/// The picture of the page a run saves: where, in which format (the file name's extension says),
/// and whether of the whole page or of what the viewport shows.
///
/// Checked against the engine before anything opens: WebKit's and Safari's drivers take PNG
/// pictures of the viewport only (WebDriver's screenshot command), and PageScript has no image
/// encoder of its own; Chromium draws JPEG and WebP too, and the whole scrollable page
/// (DevTools' `Page.captureScreenshot`).
///
/// ```swift
/// request.screenshot = try ScreenshotRequest(path: "shot.jpg", fullPage: true, engine: .local(.chromium))
/// ```
public struct ScreenshotRequest: Sendable, Equatable {
    /// An image format the file's name asks for.
    public enum Format: String, Sendable {
        /// `.png`, or a name without an extension.
        case png
        /// `.jpg` or `.jpeg`.
        case jpeg
        /// `.webp`.
        case webp
    }

    /// Where the picture is saved.
    public let path: String
    /// The format the name's extension asks for (PNG for a name without one).
    public let format: Format
    /// Whether the picture shows the whole scrollable page rather than the viewport.
    public let fullPage: Bool

    /// A picture saved at `path`, checked against `engine`.
    ///
    /// - Throws: ``InjectionError/library(_:)`` (bad input) for a name whose extension is no
    ///   image format PageScript writes, or a format or a full page the engine cannot give.
    public init(path: String, fullPage: Bool = false, engine: EngineChoice) throws(InjectionError) {
        guard let format = Self.formats[URL(fileURLWithPath: path).pathExtension.lowercased()] else {
            throw .library("--screenshot \(path): PageScript saves screenshots as .png, .jpg (or .jpeg) or .webp files, by the name's extension")
        }
        if case let .local(engine, _) = engine, engine != .chromium {
            let driver = switch engine {
            case .safari: "Safari's driver"
            case .firefox: "geckodriver"
            default: "WebKit's driver"
            }
            if format != .png {
                throw .library("--screenshot \(path): \(driver) takes screenshots only as PNG; "
                    + "name the file .png, or use --engine chromium for \(format == .jpeg ? "JPEG" : "WebP")")
            }
            if fullPage, engine != .firefox {
                throw .library("--full-page: \(driver) pictures only the viewport; use --engine chromium "
                    + "or firefox for the whole page, or a taller --viewport")
            }
        }
        self.path = path
        self.format = format
        self.fullPage = fullPage
    }

    private static let formats: [String: Format] = ["": .png, "png": .png, "jpg": .jpeg, "jpeg": .jpeg, "webp": .webp]
}
