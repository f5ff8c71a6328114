import ArgumentParser

/// `run`'s limits on loading and running, and what counts as a page that loaded:
/// `--timeout`, `--load-timeout` and `--fail-on-http-error`.
struct LoadOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole run may take, page loading included unless --load-timeout is given.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(name: .customLong("load-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Seconds the page may take to load; --timeout then covers the script alone.", valueName: "seconds"))
    var loadTimeout: Double?

    @Flag(name: .customLong("fail-on-http-error"),
          help: "Treat a page the server answered with 400 or more as a page that did not load: nothing runs, exit 2 (where the engine reports the status: Chromium).")
    var failsOnHTTPError = false

    func validate() throws {
        try Seconds.check(timeout, option: "--timeout")
        if let loadTimeout { try Seconds.check(loadTimeout, option: "--load-timeout") }
    }
}
