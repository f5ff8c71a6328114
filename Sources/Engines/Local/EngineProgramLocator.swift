import Foundation
import SystemSupport

/// Where an engine's programs are: on `PATH`, or, for a program PageScript installs itself
/// (Firefox's geckodriver, which Debian does not package), in PageScript's own engine folder.
///
/// ```swift
/// let driver = EngineProgramLocator.find("geckodriver")
/// ```
public enum EngineProgramLocator {
    /// PageScript's own engine folder: `$XDG_DATA_HOME/pagescript/engines`, or
    /// `~/.local/share/pagescript/engines`, where `scripts/install-engines.sh` puts geckodriver.
    public static var ownFolder: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/pagescript/engines"
    }

    /// The names a required program may also have: Firefox's own where the ESR is not installed.
    static let alternatives = ["firefox-esr": ["firefox"]]

    /// The path of `program` (or of one of its ``alternatives``) on `path`, this process's `PATH`
    /// when `nil`; with no `path` given, PageScript's own engine folder is searched last.
    public static func find(_ program: String, path: String? = nil) -> String? {
        for name in [program] + (alternatives[program] ?? []) {
            if let found = ExecutableLocator.find(name, path: path) { return found }
        }
        guard path == nil else { return nil }
        return ExecutableLocator.find(ownFolder + "/" + program)
    }
}

extension Engine {
    /// Where this engine's ``requiredPrograms`` are (by their required names), and which are
    /// missing, found by ``EngineProgramLocator/find(_:path:)``.
    public func locatePrograms(path: String? = nil) -> (found: [String: String], missing: [String]) {
        var found: [String: String] = [:]
        var missing: [String] = []
        for program in requiredPrograms {
            if let location = EngineProgramLocator.find(program, path: path) { found[program] = location } else { missing.append(program) }
        }
        return (found, missing)
    }
}
