import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct ScriptValuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "values",
        abstract: "Show or edit the values a script keeps with GM_setValue.",
        discussion: """
            Without options, prints one line per value: the key, a tab, the value as JSON. \
            --set KEY=JSON (a JSON value after the first '=': n=-5, on=true, name='"Ada"', prefs='{"a":1}'), \
            --delete KEY and --clear change the values and print them as they are then. Changes are written \
            like a run's: under the library lock, key by key, atomically.
            """)

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @Flag(name: .long, help: "Print {\"id\", \"revision\", \"values\"} as JSON.")
    var json = false

    @Option(name: .customLong("set"), help: ArgumentHelp("Set KEY to a JSON value (repeatable).", valueName: "KEY=JSON"))
    var assignments: [String] = []

    @Option(name: .customLong("delete"), help: ArgumentHelp("Remove KEY (repeatable).", valueName: "KEY"))
    var deletions: [String] = []

    @Flag(name: .long, help: "Remove every value of the script.")
    var clear = false

    @OptionGroup var libraryOptions: LibraryOptions

    func validate() throws {
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError("--set takes a key, '=' and a JSON value: --set \(assignment)=VALUE")
        }
    }

    func run() throws {
        try libraryOptions.withScript(reference) { library, stored in
            let store = ScriptValueStore(libraryDirectory: library.directory)
            if clear {
                try store.removeAll(of: stored.id)
            }
            var changes: [ValueChange] = []
            for assignment in assignments {
                let separator = assignment.firstIndex(of: "=") ?? assignment.endIndex
                let key = String(assignment[..<separator])
                let text = String(assignment[assignment.index(after: separator)...])
                do {
                    changes.append(.set(key: key, value: try JSONValue(parsing: text)))
                } catch {
                    throw CommandFailure.badInput(
                        "the value of \(key) is not JSON (\(error)); a string is written with quotes: --set '\(key)=\"text\"'")
                }
            }
            changes += deletions.map { ValueChange.delete(key: $0) }
            let values = changes.isEmpty ? try store.values(of: stored.id) : try store.apply(changes, to: stored.id)
            show(values)
        }
    }

    private func show(_ values: ScriptValues) {
        if json {
            let document: JSONValue = [
                "id": .string(values.scriptID.rawValue),
                "revision": .integer(Int64(values.revision)),
                "values": values.object,
            ]
            printOutput(document.serialized)
            return
        }
        for (key, value) in values.pairs {
            printOutput(TerminalSafeText.escaped(key) + "\t" + value.serialized)
        }
    }
}
