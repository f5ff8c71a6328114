import Foundation
import Engines
import PageRuntime

/// How a batch runs: how many pages at once, how long each may take, how failures are retried.
///
/// ```swift
/// var configuration = BatchConfiguration()
/// configuration.jobs = 4
/// configuration.timeout = 10
/// configuration.ordered = true
/// ```
public struct BatchConfiguration: Sendable, Equatable {
    /// Sessions open at once, each working through pages one after another.
    public var jobs = 2
    /// Seconds one attempt at a page may take: loading it and running the script together, or,
    /// with ``loadTimeout``, running each script.
    public var timeout: Double = 30
    /// Seconds a page may take to load, apart from ``timeout`` (`--load-timeout`); `nil` to
    /// count the load in ``timeout``.
    public var loadTimeout: Double?
    /// What each page's navigation waits for before its script runs (`--wait-until`); the
    /// sessions must come from a source made for it (``Engines/EngineChoice/waiting(until:)``).
    public var waitUntil: LoadWait = .load
    /// Hosts every userscript's `GM_xmlhttpRequest` may reach beyond its `@connect` lines
    /// (`--connect`; `*` for any).
    public var connecting: [String] = []
    /// Where userscripts' `GM_download` saves files (`--downloads`); `nil`: downloads are off.
    public var downloads: URL?
    /// How many times a page is tried again when its session died under it (on a new session), or
    /// it timed out, did not load or its server answered 5xx (``RecordStatus/isWorthRetrying(httpStatus:)``;
    /// after a backoff).
    public var retries = 1
    /// Whether records are written in input order (else in the order pages finish).
    public var ordered = false
    /// Seconds to keep waiting, with backoff, for a session (a full grid, an endpoint that went
    /// away) before the batch stops.
    public var sessionWait: Double = 300
    /// A local browser process using more resident memory than this many bytes is stopped and
    /// its page counted as crashed; `nil` for no limit.
    public var memoryLimit: UInt64? = 2048 * 1024 * 1024
    /// After a stop is requested, how long pages already running may take to finish before they
    /// are abandoned (and left for `--resume`), in seconds.
    public var stopGrace: Double = 2
    /// How long a browser may take to start, in seconds.
    public var startupTimeout: Double = 30
    /// Whether every page's own Content-Security-Policy is lifted (Chromium only): its inline
    /// scripts and `eval` then run too. Off: the script is compiled outside the policy anyway.
    public var bypassesContentSecurityPolicy = false
    /// How `alert`, `confirm` and `prompt` are answered on every page (`--dialogs`).
    public var dialogs: DialogPolicy = .dismiss
    /// How many finished records may wait for an earlier, slower page with ``ordered``; a worker
    /// waits before starting a page further ahead than that.
    public var reorderCapacity = 256
    /// At most this many pages of one host (its name, as the address gives it) are open at once;
    /// `nil` for no limit. Pages of a host at its limit wait, and pages of other hosts go first.
    public var perHost: Int?
    /// Seconds between the starts of two pages of one host (retries included).
    public var delayPerHost: Double = 0
    /// The size every page is drawn at (`innerWidth` by `innerHeight`): each session's window is
    /// fitted to it when the session opens; `nil` leaves the engine's own window.
    public var viewport: Viewport?

    public init() {}

    /// What is wrong with the numbers a user gave (`--jobs`, `--timeout`, `--retries`,
    /// `--session-wait`, `--memory-limit` in megabytes), as the message to show; `nil` when nothing is.
    public static func problem(jobs: Int, timeout: Double, retries: Int, sessionWait: Double, memoryLimitMB: Int) -> String? {
        if !(1...256).contains(jobs) { return "--jobs must be between 1 and 256" }
        if !(timeout > 0 && timeout <= 86_400) { return "--timeout must be between 0 and 86400 seconds" }
        if !(0...100).contains(retries) { return "--retries must be between 0 and 100" }
        if sessionWait < 0 { return "--session-wait must not be negative" }
        if memoryLimitMB < 0 { return "--memory-limit must not be negative" }
        return nil
    }

    /// What is wrong with `--per-host` (0 for no limit) and `--delay-per-host`, as the message to
    /// show; `nil` when nothing is.
    public static func politenessProblem(perHost: Int, delayPerHost: Double) -> String? {
        if !(0...256).contains(perHost) { return "--per-host must be between 0 (no limit) and 256" }
        if !(delayPerHost >= 0 && delayPerHost <= 3600) { return "--delay-per-host must be between 0 and 3600 seconds" }
        return nil
    }
}
