import ArgumentParser

/// `run`'s limits on loading and running, and what counts as a page that loaded:
/// `--timeout`, `--load-timeout` and `--fail-on-http-error`.
struct LoadOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole run may take, page loading included unless --load-timeout is given.", valueName: "seconds"))
    var timeout: Double = 30

    @OptionGroup var loadTimeoutOption: LoadTimeoutOption

    /// `--load-timeout`.
    var loadTimeout: Double? { loadTimeoutOption.loadTimeout }

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
