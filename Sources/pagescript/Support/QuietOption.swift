import ArgumentParser

/// `--quiet`, for the commands that print a page's title line or a progress line.
struct QuietOption: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print no page title line and no progress line: values, records, errors and what went wrong only.")
    var quiet = false
}
