import ArgumentParser
import Benchmarking
import Engines
import Foundation

/// `pagescript bench`: PageScript's cost against the WebDriver floor, Selenium and Playwright for
/// Python, and its own budgets, as one table of ratios (or, with `--json`, one JSON object).
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure PageScript against the WebDriver floor, Selenium, Playwright and its budgets; print one table of ratios.",
        discussion: """
            Takes a few minutes. The peer rows install Selenium and Playwright for Python from PyPI into \
            $XDG_CACHE_HOME/pagescript/bench-venv (~/.cache/...) the first time (Playwright drives the \
            system Chromium; no browser is downloaded, so Playwright's own Firefox cannot be had and its \
            Firefox rows say so); --skip-peer leaves them out, and they are not \
            set up when --sections selects none of peers, batch and real-pages. The real-page rows serve \
            Debian's python3.11-doc, which they install with apt-get when run as root (else they say what \
            to run). The bare-protocol floor needs only python3. The cold-process rows time this \
            pagescript executable: run a release build.
            """)

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Engines to measure; Firefox's rows only when named (--engines firefox), since they take long.", valueName: "engine"))
    var engines: [Engine] = [.webkit, .chromium]

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "Groups of rows to measure: matching (and library load), keystrokes, runs (warm and cold, GM API), peers (cold processes vs the floor, Selenium, Playwright; warm runs vs the peers), memory (without peers: no Selenium baseline), batch, real-pages (batches over the Python documentation with a strict CSP), browse (load event to a document-idle script's first line).",
            valueName: "section"))
    var sections: [BenchmarkSection] = BenchmarkSection.allCases

    @Option(name: .long, help: ArgumentHelp("Repetitions of each warm measurement (default 50; 10 with --quick).", valueName: "count"))
    var repetitions: Int?

    @Option(name: .customLong("cold-repetitions"), help: ArgumentHelp("Repetitions of each cold measurement (default 5; 2 with --quick).", valueName: "count"))
    var coldRepetitions: Int?

    @Option(name: .customLong("real-page-limit"), help: ArgumentHelp("Measure the real-page rows over the first N pages only (default all), to check that they run.", valueName: "N"))
    var realPageLimit: Int?

    @Flag(name: .customLong("skip-peer"), help: "Leave out Selenium and Playwright for Python (for machines without PyPI).")
    var skipPeer = false

    @Flag(name: .long, help: "Fewer repetitions (10 warm, 2 cold): a rough table, to check that every row runs.")
    var quick = false

    @Flag(name: .long, help: "Print one JSON object (machine, date, rows) instead of the table.")
    var json = false

    func validate() throws {
        guard (repetitions ?? 1) >= 1, (coldRepetitions ?? 1) >= 1 else {
            throw ValidationError("--repetitions and --cold-repetitions must be at least 1")
        }
        guard (realPageLimit ?? 1) >= 1 else { throw ValidationError("--real-page-limit must be at least 1") }
        guard !engines.contains(.safari) else { throw ValidationError("bench measures webkit, chromium and firefox only") }
    }

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        var options = BenchmarkOptions(quick: quick, pagescriptExecutable: Bundle.main.executablePath ?? CommandLine.arguments[0])
        options.engines = engines
        options.sections = Set(sections)
        options.includesPeer = !skipPeer
        if let repetitions { options.repetitions = repetitions }
        if let coldRepetitions { options.coldRepetitions = coldRepetitions }
        options.realPageLimit = realPageLimit
        let rows = try await BenchmarkSuite.run(options) { note in
            printError("pagescript bench: \(note)")
        }
        printOutput(json ? BenchmarkReport(rows: rows).json : ComparisonTable.render(rows))
    }
}

extension BenchmarkSection: ExpressibleByArgument {}
