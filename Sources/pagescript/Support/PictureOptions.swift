import ArgumentParser
import Engines
import PageRuntime

/// `run`'s picture of the page: `--screenshot FILE` (its format by the name), `--full-page`, and
/// `--viewport`, the size pages are drawn at.
struct PictureOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Save a picture of the page after the script ran: .png, or on Chromium .jpg or .webp (with --json, its path is in the object).", valueName: "file"))
    var screenshot: String?

    @Flag(name: .customLong("full-page"), help: "With --screenshot, picture the whole scrollable page, not only the viewport (Chromium).")
    var fullPage = false

    @Option(name: .long, help: ArgumentHelp("The size pages are drawn at, WIDTHxHEIGHT (innerWidth by innerHeight; default: the engine's own window).", valueName: "size"))
    var viewport: Viewport?

    func validate() throws {
        if fullPage, screenshot == nil { throw ValidationError("--full-page goes with --screenshot FILE") }
    }

    /// The screenshot asked for, checked against `engine` before anything opens.
    func request(engine: EngineChoice) throws -> ScreenshotRequest? {
        guard let screenshot else { return nil }
        return try ScreenshotRequest(path: screenshot, fullPage: fullPage, engine: engine)
    }
}

extension Viewport: ExpressibleByArgument {
    /// `WIDTHxHEIGHT`, as ``Viewport/init(_:)`` reads it.
    public init?(argument: String) {
        self.init(argument)
    }

    /// `1280x800`.
    public var defaultValueDescription: String { description }
}
