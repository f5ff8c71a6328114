import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct ShowScript: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show how PageScript reads a script: when it runs, each rule, the files it asks for, what it set aside.",
        discussion: "With --source, print the script's file exactly as it is instead.")

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @Flag(name: .long, help: "Print the script's file, byte for byte.")
    var source = false

    @Flag(name: .long, help: "Print one JSON object: the file, id, name, switches, rules, files asked for and notes.")
    var json = false

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        if source, json { throw ValidationError("give --source or --json, not both") }
    }

    func run() throws {
        try libraryOptions.withScript(reference) { library, stored in
            if source {
                write(stored.script.text, to: .output)
                return
            }
            if json {
                printOutput(ScriptJSON.details(of: stored, files: DependencyCache(libraryDirectory: library.directory)).serialized)
                return
            }
            let safe = TerminalSafeText.escaped
            printOutput("file: \(safe(stored.file.path(percentEncoded: false)))")
            printOutput("id: \(stored.id)")
            printOutput("name: \(safe(stored.name))")
            let switches = stored.isEnabled ? "yes" : "no (runs only on demand)"
            let sites = stored.disabledSites.isEmpty ? "" : "; switched off on \(stored.disabledSites.map(\.description).joined(separator: ", "))"
            printOutput("enabled: \(switches)\(safe(sites))")
            for line in stored.interpretation.report {
                printOutput(safe(line))
            }
            let usesSuffixes = stored.interpretation.rules.contains { $0.patterns.contains(where: \.usesPublicSuffixList) }
            if usesSuffixes, case .failure(let error) = PublicSuffixList.shared(at: library.publicSuffixListPath) {
                printError("pagescript: \(safe(error.description))")
            }
        }
    }
}
