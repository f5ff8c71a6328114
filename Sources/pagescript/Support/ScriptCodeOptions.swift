import ArgumentParser
import Foundation
import UserScripts

/// A script's code on the command line, the same way for `run`, `scripts new` and
/// `scripts save-for`: `-e CODE`, `-f FILE`, or `-` to read it from standard input.
struct ScriptCodeOptions: ParsableArguments {
    @Option(name: .customShort("e"), help: ArgumentHelp("The script's code.", valueName: "code"))
    var code: String?

    @Option(name: .customShort("f"), help: ArgumentHelp("A file holding the script's code ('-' for standard input).", valueName: "file"))
    var file: String?

    @Argument(help: ArgumentHelp("'-' to read the script's code from standard input.", valueName: "-"))
    var standardInputMarker: String?

    /// The code named could not be read: a missing or unreadable file, text that is not UTF-8.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    func validate() throws {
        if let standardInputMarker, standardInputMarker != "-" {
            throw ValidationError(Self.strayArgument(standardInputMarker))
        }
        guard [code != nil, file != nil, standardInputMarker != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("give the code once: -e CODE, -f FILE or -")
        }
    }

    /// Why `argument`, where only `-` may stand, is refused: most often the value of an option the
    /// command does not have (`--nosuch VALUE`), which is then named.
    static func strayArgument(_ argument: String, commandLine: [String] = CommandLine.arguments) -> String {
        let before = commandLine.firstIndex(of: argument).flatMap { $0 > 0 ? commandLine[$0 - 1] : nil }
        if let before, before.hasPrefix("-"), before != "-", !before.contains("=") {
            return "unexpected argument '\(argument)' after \(before): is \(before) an option of this command that takes a value? See --help"
        }
        return "unexpected argument '\(argument)': see --help for this command's arguments"
    }

    /// Whether the code was given at all.
    var isGiven: Bool {
        code != nil || file != nil || standardInputMarker != nil
    }

    /// The code; `nil` when none was given.
    func read() throws(Unreadable) -> String? {
        if let code { return code }
        if let file, file != "-" {
            guard let data = FileManager.default.contents(atPath: file) else {
                let reason = FileManager.default.fileExists(atPath: file) ? "permission denied or not a regular file" : "no such file"
                throw Unreadable(description: "cannot read the script file '\(file)': \(reason)")
            }
            if ZipArchiveText.isZipArchive(Array(data)) { throw Unreadable(description: "the script file '\(file)' " + ZipArchiveText.notAScript) }
            guard let text = String(data: data, encoding: .utf8) else {
                throw Unreadable(description: "the script file '\(file)' is not UTF-8 text")
            }
            return text
        }
        guard standardInputMarker != nil || file == "-" else { return nil }
        let input = FileHandle.standardInput.readDataToEndOfFile()
        if ZipArchiveText.isZipArchive(Array(input)) { throw Unreadable(description: "standard input " + ZipArchiveText.notAScript) }
        guard let text = String(data: input, encoding: .utf8) else {
            throw Unreadable(description: "standard input is not UTF-8 text")
        }
        return text
    }
}

/// `--run-at`, for the commands that save a script: when it runs on the pages it matches.
///
/// Apart from ``ScriptCodeOptions`` because only a saved script has a time to run; `run` runs
/// its code once, after the page has loaded.
struct RunAtOption: ParsableArguments {
    @Option(name: .customLong("run-at"), help: ArgumentHelp("When the script runs on the pages it matches: document-start, document-body, document-end or document-idle (default: document-idle for a script with site rules; a script without them runs only on demand).", valueName: "moment"))
    var runAt: RunAt?
}

extension RunAt: ExpressibleByArgument {}
