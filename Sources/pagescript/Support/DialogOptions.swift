import ArgumentParser
import PageRuntime

/// `--dialogs`: how `alert`, `confirm` and `prompt` are answered, the same for `run` and every
/// page of a `batch`.
struct DialogOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How alert, confirm and prompt are answered.", valueName: "answer"))
    var dialogs: DialogPolicy = .dismiss
}

extension DialogPolicy: ExpressibleByArgument {}
