/// Why an engine could not be started.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Programs the engine needs are not on `PATH`.
    case missing(engine: Engine, programs: [String])
    /// The engine's processes started but did not work.
    case failedToStart(engine: Engine, reason: String)
    /// A remote endpoint (`--webdriver-url`) did not answer or refused a session.
    case remoteUnavailable(endpoint: String, reason: String)
    /// Nothing usable answers at the address `--attach` named (`HOST:PORT`).
    case attachUnavailable(address: String, reason: String)

    public var description: String {
        switch self {
        case let .missing(engine, programs):
            "\(engine.displayName) is not installed: \(programs.joined(separator: ", ")) not found on PATH; \(engine.installHint)"
        case let .failedToStart(engine, reason):
            "\(engine.displayName) failed to start: \(reason). If it is not installed properly, \(engine.installHint)"
        case let .remoteUnavailable(endpoint, reason):
            "the WebDriver endpoint \(endpoint) is not usable: \(reason)"
        case let .attachUnavailable(address, reason):
            "cannot attach to a browser at \(address): \(reason). Start Chromium with "
                + "--remote-debugging-port=PORT --user-data-dir=DIR and give --attach 127.0.0.1:PORT"
        }
    }
}
