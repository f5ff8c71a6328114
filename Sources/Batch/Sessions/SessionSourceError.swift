import Engines

/// Why a session could not be opened.
public enum SessionSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint has no free session now (a full grid answers `session not created`): wait,
    /// with backoff, and ask again.
    case full(reason: String)
    /// Opening failed (a browser that did not start, an endpoint that went away): try again, but
    /// a batch that never got a single session stops after a few such failures.
    case failed(reason: String)
    /// No session can be opened at all (an engine that is not installed, an endpoint that does
    /// not answer when the batch starts): the batch stops.
    case fatal(reason: String)

    public var description: String {
        switch self {
        case let .full(reason), let .failed(reason), let .fatal(reason): reason
        }
    }
}

extension Engine {
    /// Where the engine's programs are, for a local source's ``SessionSource/prepare()``; a batch
    /// cannot start without them.
    ///
    /// - Throws: ``SessionSourceError/fatal(reason:)`` naming what is missing and how to install it.
    func programsForBatch(path: String?) throws(SessionSourceError) -> [String: String] {
        let (found, missing) = locatePrograms(path: path)
        guard missing.isEmpty else { throw .fatal(reason: EngineError.missing(engine: self, programs: missing).description) }
        return found
    }
}
