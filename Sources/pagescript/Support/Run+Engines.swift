import Engines
import PageRuntime

extension Run {
    /// The run on each engine of `selection` at once, compared (``EngineComparison``); the exit
    /// status is the worst of the engines'.
    func compareEngines(_ selection: EngineSelection, address: String) async throws {
        let (engines, skipped) = selection.engines()
        guard !engines.isEmpty else { throw CommandFailure.badInput("no engine is installed here: see 'pagescript engines'") }
        let comparison = await EngineComparison.perform(try engines.map { ($0, try request(address: address, on: $0)) })
        printLines(comparison.lines(asJSON: json, skipped: skipped, quiet: quietOption.quiet))
        let failures = comparison.outcomes.compactMap { CommandFailure(ending: $0.result) }
        if let worst = failures.max(by: { ExitStatus.code(for: $0) < ExitStatus.code(for: $1) }) { throw worst }
    }
}

extension CommandFailure {
    /// What a run's outcome ends the command with; `nil` for a run that succeeded.
    init?(ending result: Result<RunReport, PageRunner.Failure>) {
        switch result {
        case let .failure(failure): self = .reported(failure)
        case let .success(report):
            switch report.ending {
            case .succeeded: return nil
            case .scriptFailed: self = .scriptsFailed
            case .timedOut: self = .scriptsTimedOut
            }
        }
    }
}
