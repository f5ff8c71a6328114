import ArgumentParser
import Batch

/// `--per-host` and `--delay-per-host`: how gently a batch treats each site it visits.
struct PolitenessOptions: ParsableArguments {
    @Option(name: .customLong("per-host"), help: ArgumentHelp("Open at most this many pages of one host at once (0: no limit).", valueName: "count"))
    var perHost = 0

    @Option(name: .customLong("delay-per-host"), help: ArgumentHelp("Seconds between the starts of two pages of one host.", valueName: "seconds"))
    var delayPerHost: Double = 0

    func validate() throws {
        if let problem = BatchConfiguration.politenessProblem(perHost: perHost, delayPerHost: delayPerHost) { throw ValidationError(problem) }
    }

    func apply(to settings: inout BatchConfiguration) {
        settings.perHost = perHost > 0 ? perHost : nil
        settings.delayPerHost = delayPerHost
    }
}
