import ArgumentParser
import PageRuntime

/// `run`'s limits on loading and running, and what counts as a page that loaded:
/// `--timeout`, `--load-timeout`, `--wait-until` and `--fail-on-http-error`.
struct LoadOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole run may take, page loading included unless --load-timeout is given.", valueName: "seconds"))
    var timeout: Double = 30

    @OptionGroup var loadTimeoutOption: LoadTimeoutOption

    /// `--load-timeout`.
    var loadTimeout: Double? { loadTimeoutOption.loadTimeout }

    @OptionGroup var waitUntilOption: WaitUntilOption

    @Flag(name: .customLong("fail-on-http-error"),
          help: "Treat a page the server answered with 400 or more as a page that did not load: nothing runs, exit 2 (where the engine reports the status: Chromium).")
    var failsOnHTTPError = false

    func validate() throws {
        try Seconds.check(timeout, option: "--timeout")
    }
}

/// `--load-timeout`, for `run` and `batch`: the page's load gets a limit of its own.
struct LoadTimeoutOption: ParsableArguments {
    @Option(name: .customLong("load-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Seconds the page may take to load; --timeout then covers the script alone.", valueName: "seconds"))
    var loadTimeout: Double?

    func validate() throws {
        if let loadTimeout { try Seconds.check(loadTimeout, option: "--load-timeout") }
    }
}

/// `--wait-until`, for `run` and `batch`: what the page's navigation waits for before the script runs.
struct WaitUntilOption: ParsableArguments {
    @Option(name: .customLong("wait-until"),
            help: ArgumentHelp("""
                What the page must reach before the script runs: domcontentloaded (parsed; images may still be loading), \
                load (its load event), or idle (after load, no resource finished for half a second). A page still loading \
                when its time runs out gets the script anyway, with a warning, if it was parsed by then.
                """, valueName: "moment"))
    var waitUntil: LoadWait = .load
}

extension LoadWait: ExpressibleByArgument {}
