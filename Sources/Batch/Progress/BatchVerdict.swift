import Foundation
import SystemSupport

/// What a finished batch tells its user, and how the command should end: the summary line for
/// standard error (when there is one) and the verdict its exit status comes from.
///
/// ```swift
/// let closing = BatchVerdict.closing(summary, outputPath: "out.jsonl", sessionWait: 300)
/// closing.line   // "pagescript batch: 500 pages in 12.4 s ...; records in out.jsonl"
/// ```
public enum BatchVerdict: Sendable, Equatable {
    /// Every page ran its script without an error.
    case succeeded
    /// Some pages did not end `ok`; their records say why.
    case pagesFailed
    /// A termination signal stopped the batch (`nil`: stopped without one).
    case stopped(signal: Int32?)
    /// No session could be had; the message says why.
    case noSession(String)
    /// The reader of the records went away (`pagescript batch ... | head`): it had what it wanted.
    case readerGone
    /// The input or output failed; the message says how, and how to continue.
    case badInput(String)

    /// The summary line and the verdict for `summary`; `outputPath` is `--output`, named in the
    /// line and in the `--resume` hint, and `sessionWait` is `--session-wait`. With `quiet`
    /// (`--quiet`) a batch whose every page ran has no line.
    public static func closing(_ summary: BatchSummary, outputPath: String?, sessionWait: Double,
                               quiet: Bool = false) -> (line: String?, verdict: BatchVerdict) {
        let line = "pagescript batch: \(summary.line)"
        let resumeHint = outputPath.map { "; continue with: --output \(TerminalSafeText.escaped($0)) --resume" } ?? ""
        switch summary.ending {
        case .completed:
            let records = outputPath.map { "; records in \(TerminalSafeText.escaped($0))" } ?? ""
            let failed = summary.progress.failed > 0
            return (quiet && !failed ? nil : line + records, failed ? .pagesFailed : .succeeded)
        case let .stopped(signal):
            return (line + "; stopped" + resumeHint, .stopped(signal: signal))
        case let .noSession(reason):
            return (line, .noSession("no session could be started: \(reason)"))
        case let .sessionsLost(reason):
            return (line, .noSession("no session for \(Int(sessionWait)) s, so the batch stopped: \(reason)\(resumeHint)"))
        case .failed(.output(.closedByReader)):
            return (nil, .readerGone)
        case let .failed(failure):
            switch failure {
            case .pageScript: return (line, .noSession(failure.description))
            case .input, .inputChanged, .output: return (line, .badInput(failure.description + resumeHint))
            }
        }
    }
}
