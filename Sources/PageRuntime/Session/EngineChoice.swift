import Engines
import Foundation
import SystemSupport

/// Where a page is opened: a local engine PageScript starts, or a remote W3C endpoint.
public enum EngineChoice: Sendable, Equatable, CustomStringConvertible {
    /// A local engine found on `PATH`, started as `options` say (hidden with a throwaway profile
    /// unless told otherwise).
    case local(Engine, options: LaunchOptions = LaunchOptions())
    /// A remote endpoint such as a Selenium Grid, optionally asking for a browser by name, with
    /// what the user asks of its browsers.
    case remote(URL, browserName: String?, settings: BrowserSettings = BrowserSettings())

    public var description: String {
        switch self {
        case let .local(engine, _): engine.rawValue
        case let .remote(url, browserName, _): "\(browserName ?? "browser") at \(url.absoluteString)"
        }
    }

    /// Starts the engine (or connects to the endpoint).
    public func start(timeout: Double = 20) async throws(EngineError) -> BrowserEngine {
        switch self {
        case let .local(engine, options): return try await BrowserEngine.start(engine, timeout: timeout, options: options)
        case let .remote(url, browserName, settings):
            // A refused or silent endpoint is reported at once, before any HTTP retries.
            let port = UInt16(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
            if let reason = TCPProbe.failureReason(host: url.host ?? "", port: port, timeout: min(timeout, 5)) {
                throw .remoteUnavailable(endpoint: url.absoluteString, reason: reason)
            }
            return BrowserEngine.remote(endpoint: url, browserName: browserName, settings: settings)
        }
    }
}
