import Engines
import SystemSupport

/// What a navigation waits for before scripts run (`--wait-until`).
///
/// Whichever it is, a page whose load runs out of time still gets its scripts when its document
/// was usable by then (DOMContentLoaded had passed): the result says the load did not finish
/// (``PageContext/unfinishedLoad``), as a userscript manager would have run its `document-end`
/// and `document-idle` scripts on such a page.
public enum LoadWait: String, Sendable, CaseIterable {
    /// The document has been parsed (DOMContentLoaded): images, stylesheets and frames may still
    /// be loading. The session asks the driver for the W3C `pageLoadStrategy` `eager`
    /// (chromedriver, remote endpoints). Not on WebKitGTK: its driver accepts `eager`, but the
    /// command after such a navigation waits for a load that has passed and never answers, so
    /// a WebKit page is waited for up to its load event, as with ``load``.
    case domContentLoaded = "domcontentloaded"
    /// The load event has passed: what every driver waits for by default.
    case load
    /// After the load event, the network is quiet: no resource the page asked for has finished
    /// loading for ``quietPeriod`` (the page's Resource Timing entries). A request still open
    /// counts only once it ends. The wait ends with the load's time, and the scripts then run
    /// anyway, the load reported as unfinished.
    case idle

    /// How long the network must stay quiet for ``idle``, in seconds.
    public static let quietPeriod: Double = 0.5

    /// The W3C `pageLoadStrategy` a session needs for this wait, when not the default.
    var pageLoadStrategy: String? {
        self == .domContentLoaded ? "eager" : nil
    }
}

extension EngineChoice {
    /// The same engine, its sessions asking for what `wait` needs of the driver (the
    /// `pageLoadStrategy` capability).
    public func waiting(until wait: LoadWait) -> EngineChoice {
        guard let strategy = wait.pageLoadStrategy else { return self }
        switch self {
        case .local(let engine, var options):
            guard engine != .webkit else { return self }
            options.settings.capabilities.append((key: "pageLoadStrategy", value: .string(strategy)))
            return .local(engine, options: options)
        case .remote(let url, let browserName, var settings):
            settings.capabilities.append((key: "pageLoadStrategy", value: .string(strategy)))
            return .remote(url, browserName: browserName, settings: settings)
        }
    }
}
