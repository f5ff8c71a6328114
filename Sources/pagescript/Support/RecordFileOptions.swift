import ArgumentParser
import Batch

/// Where a batch's records go and how they are laid out, and how its input is.
struct RecordFileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write the records to this file instead of standard output (a .csv name writes CSV).", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Continue the --output file: skip the entries it records, drop a torn last line.")
    var resume = false

    @Flag(name: .long, help: "Write records in input order (else as pages finish).")
    var ordered = false

    @Option(name: .long, help: ArgumentHelp("The records' format: jsonl (one JSON object per line) or csv (a header, then the value's members in columns of their own). Default: csv for a .csv --output, else jsonl.", valueName: "format"))
    var format: OutputFormat?

    @Option(name: .customLong("input-format"), help: ArgumentHelp("How the input is laid out: list (a URL per line), csv or tsv (a header naming a url column), jsonl (an object with a url per line). Default: from the input's name (.csv, .tsv, .jsonl, .ndjson), else list.", valueName: "format"))
    var inputFormat: InputFormat?

    /// Opens and checks the input `urls` and the output.
    func plan(input urls: String?) throws -> BatchPlan {
        try BatchPlan.prepare(inputPath: urls, outputPath: output, resume: resume, inputFormat: inputFormat, outputFormat: format)
    }
}

extension OutputFormat: ExpressibleByArgument {}

extension InputFormat: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { ["list", "csv", "tsv", "jsonl"] }
}
