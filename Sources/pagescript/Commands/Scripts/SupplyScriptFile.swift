import ArgumentParser
import Foundation
import GMAPI
import SystemSupport

struct SupplyScriptFile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supply",
        abstract: "Give a script's @require or @resource file from a file on disk, for a host PageScript cannot reach.",
        discussion: """
            The URL is the one the script declares (with or without its #sha256=… fragment). The file is \
            checked against the author's integrity hash, as a download is, and kept in the library's cache; \
            the script then runs with it. Prints what the file now stands for; a script that still misses \
            other files says so on standard error.
            """)

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @Argument(help: ArgumentHelp("The URL the script declares the file at.", valueName: "url"))
    var url: String

    @Argument(help: ArgumentHelp("The file to use for it.", valueName: "file"))
    var file: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        guard let bytes = FileManager.default.contents(atPath: file) else {
            throw CommandFailure.badInput("supply: \(file) cannot be read")
        }
        try libraryOptions.withScript(reference) { library, stored in
            let cache = DependencyCache(libraryDirectory: library.directory)
            do throws(SupplyFailure) {
                for dependency in try cache.supply(Array(bytes), forURL: url, of: stored.script, id: stored.id, fromFile: file) {
                    let fields = ["supplied", stored.id.rawValue, stored.name, dependency.description, "\(bytes.count) bytes"]
                    printOutput(fields.map(TerminalSafeText.escaped).joined(separator: "\t"))
                }
            } catch {
                throw CommandFailure.badInput("supply: \(TerminalSafeText.escaped(error.description))")
            }
            if let blocked = cache.blockReason(for: stored) {
                printError(TerminalSafeText.escaped("\(stored.name) is still \(blocked)"))
            }
        }
    }
}
