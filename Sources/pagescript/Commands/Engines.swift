import ArgumentParser
import WebDriver

/// `pagescript engines`: which engines are installed, their versions, and how to get the rest.
struct Engines: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the browser engines, whether each is installed, and how to install it.")

    func run() async throws {
        for report in EngineInventory.survey() {
            printOutput(report.summaryLine)
            if !report.isInstalled {
                printOutput("    missing: \(report.missingPrograms.joined(separator: ", ")); \(report.engine.installHint)")
            }
        }
    }
}
