import ArgumentParser
import PageRuntime

/// `--dialogs`: how `alert`, `confirm` and `prompt` are answered, the same for `run` and every
/// page of a `batch`.
struct DialogOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How alert, confirm and prompt are answered: dismiss, accept, or accept=TEXT to give every prompt TEXT.",
                                            valueName: "answer"))
    var dialogs: DialogPolicy = .dismiss
}

extension DialogPolicy: ExpressibleByArgument {
    public var defaultValueDescription: String { description }
    public static var allValueStrings: [String] { argumentForms }
}
