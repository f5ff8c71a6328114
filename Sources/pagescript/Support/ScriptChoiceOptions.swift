import ArgumentParser
import Batch
import Foundation
import PageRuntime
import UserScripts

/// Which script `run` and `batch` run: code (`-e`, `-f`, `-`), a library script (`--script`) or
/// a built-in example (`--example`); none, for the library's scripts that match the page.
struct ScriptChoiceOptions: ParsableArguments {
    @OptionGroup var scriptCode: ScriptCodeOptions

    @Option(name: .long, help: ArgumentHelp("Run one library script by name or ID, whatever its patterns.", valueName: "script"))
    var script: String?

    @Option(name: .long, help: ArgumentHelp("Run a built-in example script by name (see 'pagescript examples').", valueName: "name"))
    var example: String?

    @Option(name: .customLong("connect"), help: ArgumentHelp("Let userscripts' GM_xmlhttpRequest and GM_download reach this host for this run, as a @connect line would ('*' for any host); repeatable.", valueName: "host"))
    var connect: [String] = []

    @OptionGroup var downloadOptions: DownloadOptions

    /// How many of the three ways were given.
    var given: Int {
        [scriptCode.isGiven, script != nil, example != nil].filter { $0 }.count
    }

    /// Whether `-e`, `-f` or `-` inspects the page after what runs first: a script named with
    /// `--script` or `--example`, or the library's matching scripts (`withLibrary`).
    func inspects(withLibrary: Bool) -> Bool {
        scriptCode.isGiven && (withLibrary || script != nil || example != nil)
    }

    /// `run`'s rules: one script, or one script (or the library's, `withLibrary`) and then code that
    /// inspects the page; `--menu` belongs to a script.
    func validateForRun(withLibrary: Bool, menu: String?) throws {
        guard script == nil || example == nil else { throw ValidationError("give one script: --script NAME or --example NAME") }
        if withLibrary {
            guard script == nil, example == nil else { throw ValidationError("--with-library runs the library's matching scripts; --script and --example run one script instead") }
            guard scriptCode.isGiven else { throw ValidationError("--with-library runs the code given with -e, -f or - after the library's scripts: give it (without code, 'run URL' runs the library's scripts anyway)") }
            guard menu == nil else { throw ValidationError("--menu runs a command of the script given with --script or --example") }
        }
        guard menu == nil || given >= 1 else { throw ValidationError("--menu runs a command of the script given with --script, --example, -e or -f") }
    }

    /// The code `run` runs after the script or the library's scripts, when it inspects the page
    /// (``inspects(withLibrary:)``): console code, so text with a userscript block is refused.
    func inspection(withLibrary: Bool) throws -> String? {
        guard inspects(withLibrary: withLibrary), let text = try scriptCode.read() else { return nil }
        if UserScript(text: text).hasMetadataBlock {
            throw CommandFailure.badInput("the code given with -e, -f or - after a script is console code that inspects the page, and this has a // ==UserScript== block: run that userscript alone, or save it and name it with --script")
        }
        return text
    }

    /// The script `run` runs, with `menu` to run after it; `nil` when the library's matching
    /// scripts should run (also when `withLibrary` makes `-e` inspect the page after them).
    func runScript(library: LibraryOptions, menu: String?, withLibrary: Bool = false) throws -> RunRequest.Script? {
        // Where a userscript keeps its fetched files: the library's folder, which need not exist
        // yet (nothing is written there unless the script has files to fetch).
        func folder() throws -> URL {
            try LibraryLocation.resolve(directory: library.library, environment: ProcessInfo.processInfo.environment).directory
        }
        if let script {
            let stored = try library.openForReading().find(script)
            return .userScript(stored.script, id: stored.id, mode: .userscript, menu: menu, libraryDirectory: try folder())
        }
        if let example {
            let example = try ExampleCatalog.builtIn().example(named: example).script
            return .userScript(example, id: nil, mode: .userscript, menu: menu, libraryDirectory: try folder())
        }
        if withLibrary { return nil }
        return try scriptCode.read().map { text in
            let script = UserScript(text: text)
            guard script.hasMetadataBlock else { return .code(text, mode: .console) }
            // Text with the @name and @namespace of a library script runs as that script, with its
            // values, as the managers treat a new version of an installed script.
            return .userScript(script, id: try? library.existingLibrary()?.script(sameAs: script)?.id, mode: .console, menu: menu,
                               libraryDirectory: try folder())
        }
    }

    /// The script every page of a batch runs, or the library's matching scripts when none is named.
    func batchScript(library: LibraryOptions) throws -> BatchScript {
        // A userscript runs on every page as `run` runs it: with its GM API, files and values.
        switch try runScript(library: library, menu: nil) {
        case let .code(text, _)?: return .code(text)
        case let .userScript(script, id, mode, _, folder)?: return .userScript(script, id: id, mode: mode, libraryDirectory: folder)
        case .library?, nil: break
        }
        let location = try LibraryLocation.resolve(directory: library.library, environment: ProcessInfo.processInfo.environment)
        // Read once: every page of the batch runs the same scripts.
        return .library(try ScriptLibrary(location: location, reloadPolicy: .manual))
    }
}
