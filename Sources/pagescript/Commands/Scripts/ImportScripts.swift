import ArgumentParser
import Foundation
import GMAPI
import SystemSupport
import UserScripts

struct ImportScripts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy userscripts into the library byte for byte: .user.js files, an address, or a Tampermonkey or Violentmonkey backup.",
        discussion: """
            SOURCE is a .user.js file or a folder of them (Tampermonkey, Violentmonkey, Greasemonkey), an http or \
            https address (the script is downloaded; `scripts update` checks that address for new versions when \
            the script names no @downloadURL), or a .zip backup from Violentmonkey or Tampermonkey (the scripts, \
            their values and whether each was enabled; standard error says what else could not be carried over). \
            Standard output has one line per script: imported, updated (a new version of the installed script with \
            the same @name and @namespace, which keeps its ID and values; the old file goes to the trash), \
            unchanged (already in the library) or refused, the script's ID and the file. Standard error has one line \
            for a script read differently from how its author wrote it, with notes from a backup, or lacking files; \
            with -v, what PageScript concluded about each script: when it runs, rules it narrowed or set aside and \
            why, and the files it asks for and fetched (`scripts show` tells it again). The @require and \
            @resource files are fetched into the library's cache now, once (not on every page load); a \
            script whose files cannot be fetched is imported all the same and does not run until \
            `scripts update` fetches them. A file that is not UTF-8 text is refused (exit 1); a download \
            that fails or a damaged backup imports nothing (exit 1).
            """)

    @Argument(help: ArgumentHelp("A .user.js file, a folder of them, an http(s) address, or a backup's .zip.", valueName: "source"))
    var path: String

    @Flag(name: .customLong("no-fetch"), help: "Do not fetch @require and @resource files now (offline); 'scripts update' fetches them later.")
    var noFetch = false

    @Flag(name: .shortAndLong, help: "Say on standard error how PageScript reads each script and each file fetched.")
    var verbose = false

    @OptionGroup var libraryOptions: LibraryOptions

    func run() async throws {
        let library = try libraryOptions.open()
        let result = try await ScriptImporter(library: library).importScripts(from: path, fetchingFiles: !noFetch)
        printLines(result.lines(source: URL(fileURLWithPath: path).lastPathComponent, verbose: verbose))
        if !result.report.refused.isEmpty { throw CommandFailure.scriptsFailed }
    }
}
