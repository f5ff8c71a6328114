import Foundation
import SystemSupport

/// What is installed of each engine, with the versions of its driver and browser, for
/// `pagescript engines`.
///
/// A version is what a program says of itself where it says it: `chromedriver --version`, and
/// `chromium --version`, whose Debian launcher script also complains on standard error, which
/// is left out. WebKitWebDriver, MiniBrowser and Xvfb answer no such question, so theirs is the
/// version of the Debian package that installed them, as `dpkg-query` knows it. MiniBrowser is
/// not on `PATH` either: WebKitWebDriver starts the one whose path was compiled into it, so that
/// is the path read, from the driver's own file.
///
/// ```swift
/// for engine in EngineInventory.survey() {
///     engine.lines.forEach { print($0) }
/// }
/// ```
public struct EngineInventory: Sendable, Equatable {
    /// The engine.
    public let engine: Engine
    /// Every program the engine runs, found or not: its driver, its browser, its X server.
    public let programs: [Program]
    /// The programs found on `PATH` (or in ``EngineProgramLocator/ownFolder``), with their paths.
    public let foundPrograms: [String: String]
    /// The programs the engine needs that are not on `PATH`.
    public let missingPrograms: [String]

    /// One program an engine runs, and what is known of its version.
    public struct Program: Sendable, Equatable {
        /// What the program is to the engine.
        public enum Role: String, Sendable {
            case driver, browser, display
        }

        /// What the program is to the engine.
        public let role: Role
        /// Its name.
        public let name: String
        /// Where it is; `nil` when it was not found.
        public let path: String?
        /// Its version: what it reports, or else its Debian package's upstream version.
        public let version: String?
        /// The Debian package that installed it, when `dpkg-query` knows the file.
        public let package: DebianPackage?

        /// `name version  path  (Debian package name version)`, or why it is missing.
        public var description: String {
            guard let path else { return "\(name): not found" }
            var text = "\(name) \(version ?? "(version unknown)")  \(path)"
            if let package {
                text += "  (Debian package \(package.name) \(package.version))"
            }
            return text
        }
    }

    /// A Debian package and its version, as `dpkg-query` reports them.
    public struct DebianPackage: Sendable, Equatable {
        /// The package's name, with its architecture when it has one (`libwebkit2gtk-4.1-0:amd64`).
        public let name: String
        /// The package's version (`2.50.6-1~deb12u2`, `2:21.1.7-3+deb12u13`).
        public let version: String

        /// The upstream version inside the package's: without the epoch and the Debian revision.
        public var upstreamVersion: String {
            var text = Substring(version)
            if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...] }
            if let dash = text.lastIndex(of: "-") { text = text[..<dash] }
            return String(text)
        }
    }

    /// Whether everything the engine needs is installed.
    public var isInstalled: Bool { missingPrograms.isEmpty }

    /// The browser's version, when it is installed and known.
    public var version: String? {
        programs.first { $0.role == .browser }?.version
    }

    /// One line: name, state and the browser's version.
    public var summaryLine: String {
        let state = isInstalled ? "installed" : "not installed"
        let padded = engine.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(padded) \(state)\(version.map { ", \($0)" } ?? "")  (\(engine.displayName))"
    }

    /// The summary line, then one line per program, then what to install when something is missing.
    public var lines: [String] {
        var lines = [summaryLine]
        for program in programs {
            lines.append("    \(program.role.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(program.description)")
        }
        if !isInstalled {
            lines.append("    missing: \(missingPrograms.joined(separator: ", ")); \(engine.installHint)")
        }
        return lines
    }

    /// The same as one JSON object, for `engines --json`: `engine`, `name`, `installed`,
    /// `version` (the browser's, or `null`), `programs` (each `{"role","name","path","version",
    /// "package"}`, `null` for what is not known), `missing` and `install` (what to install, or
    /// `null` when nothing is missing).
    public var json: JSONValue {
        let programs = programs.map { program -> JSONValue in
            [
                "role": .string(program.role.rawValue),
                "name": .string(program.name),
                "path": program.path.map(JSONValue.string) ?? .null,
                "version": program.version.map(JSONValue.string) ?? .null,
                "package": program.package.map { ["name": .string($0.name), "version": .string($0.version)] } ?? .null,
            ]
        }
        return [
            "engine": .string(engine.rawValue),
            "name": .string(engine.displayName),
            "installed": .bool(isInstalled),
            "version": version.map(JSONValue.string) ?? .null,
            "programs": .array(programs),
            "missing": .array(missingPrograms.map(JSONValue.string)),
            "install": isInstalled ? .null : .string(engine.installHint),
        ]
    }

    /// Looks at every engine on `path` (defaults to this process's `PATH`).
    public static func survey(path: String? = nil) -> [EngineInventory] {
        Engine.allCases.map { inspect($0, path: path) }
    }

    /// Which engines of `Engine.allCases` have every program they need on `path` (defaults to
    /// this process's `PATH` and PageScript's own engine folder), and which do not, both in that
    /// order. No program is asked its version: quick enough to decide what a run starts.
    public static func installation(path: String? = nil) -> (installed: [Engine], missing: [Engine]) {
        let installed = Engine.allCases.filter { $0.locatePrograms(path: path).missing.isEmpty }
        return (installed, Engine.allCases.filter { !installed.contains($0) })
    }

    /// Looks at one engine.
    public static func inspect(_ engine: Engine, path: String? = nil) -> EngineInventory {
        let (found, missing) = engine.locatePrograms(path: path)
        let programs: [Program]
        switch engine {
        case .webkit:
            let driver = found["WebKitWebDriver"]
            programs = [
                describe(.driver, "WebKitWebDriver", at: driver),
                describe(.browser, "MiniBrowser", at: driver.flatMap(compiledInMiniBrowser(of:))),
                describe(.display, "Xvfb", at: found["Xvfb"]),
            ]
        case .chromium:
            programs = [
                describe(.driver, "chromedriver", at: found["chromedriver"], versionArguments: ["--version"]),
                describe(.browser, "chromium", at: found["chromium"], versionArguments: ["--version"]),
            ]
        case .safari:
            let driver = describe(.driver, "safaridriver", at: found["safaridriver"], versionArguments: ["--version"])
            // safaridriver ships with Safari and says so: "Included with Safari 17.4 (...)".
            let safari = "/Applications/Safari.app"
            let browser = Program(role: .browser, name: "Safari", path: FileManager.default.fileExists(atPath: safari) ? safari : nil,
                                  version: driver.version, package: nil)
            programs = [driver, browser]
        case .firefox:
            programs = [
                describe(.driver, "geckodriver", at: found["geckodriver"], versionArguments: ["--version"]),
                describe(.browser, "firefox-esr", at: found["firefox-esr"], versionArguments: ["--version"]),
            ]
        }
        return EngineInventory(engine: engine, programs: programs, foundPrograms: found, missingPrograms: missing)
    }

    /// A program and its version: asked of the program with `versionArguments` when it answers
    /// them, else its Debian package's.
    private static func describe(_ role: Program.Role, _ name: String, at path: String?, versionArguments: [String]? = nil) -> Program {
        guard let path else { return Program(role: role, name: name, path: nil, version: nil, package: nil) }
        let package = debianPackage(owning: path)
        var version: String?
        if let versionArguments,
           let output = CommandOutput.run(path, versionArguments, timeout: 10, includingStandardError: false) {
            version = versionNumber(in: output)
        }
        return Program(role: role, name: name, path: path, version: version ?? package?.upstreamVersion, package: package)
    }

    /// The first dotted number in a program's answer to `--version`: "156.0.8078.79" in
    /// "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)", "153.8.0esr" in "Mozilla
    /// Firefox 153.8.0esr" (a release's letters after its last number are kept).
    static func versionNumber(in output: String) -> String? {
        let separators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "(),"))
        return output.components(separatedBy: separators).first { token in
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count > 1, let last = parts.last, last.first?.isNumber == true else { return false }
            let number = parts.dropLast() + [last.prefix { $0.isNumber }]
            return number.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
                && last.drop { $0.isNumber }.allSatisfy { $0.isASCII && $0.isLetter }
        }
    }

    /// The Debian package that installed the file at `path` (links followed), with its version;
    /// `nil` where there is no `dpkg-query` or the file is not a package's.
    static func debianPackage(owning path: String) -> DebianPackage? {
        guard let dpkgQuery = ExecutableLocator.find("dpkg-query") else { return nil }
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let owners = CommandOutput.run(dpkgQuery, ["-S", file], includingStandardError: false) else { return nil }
        // "libwebkit2gtk-4.1-0:amd64: /usr/lib/.../MiniBrowser"; several owners are comma-separated.
        let suffix = ": " + file
        guard let line = owners.split(separator: "\n").first(where: { $0.hasSuffix(suffix) }),
              let name = line.dropLast(suffix.count).components(separatedBy: ", ").first, !name.isEmpty,
              let version = CommandOutput.run(dpkgQuery, ["-W", "-f=${Version}", name], includingStandardError: false),
              !version.isEmpty
        else { return nil }
        return DebianPackage(name: name, version: version)
    }

    /// The MiniBrowser that WebKitWebDriver starts: the absolute path ending in `/MiniBrowser`
    /// that was compiled into the driver, when that file exists.
    ///
    /// The driver is read in pieces, never whole: a run should not hold the whole driver in
    /// memory to find one path. Each piece is searched for NULs with `memchr`, and only where the
    /// bytes before one are `/MiniBrowser` is the string read back to its start. (Walking the file
    /// a byte at a time through `Data`'s iterator cost a cold WebKit run a great many
    /// instructions.) The last 4 KB of a piece (a path is never longer than `PATH_MAX`) are read
    /// again with the next, so a path cut by the end of a piece is still found.
    static func compiledInMiniBrowser(of driverPath: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: driverPath) else { return nil }
        defer { try? file.close() }
        let suffix = Array("/MiniBrowser".utf8)
        let longestPath = 4096
        var window: [UInt8] = []
        // Whether `window` starts where a string starts: at the file's start or after a NUL.
        var windowStartsAString = true
        while let chunk = try? file.read(upToCount: 64 * 1024), !chunk.isEmpty {
            window += chunk
            let found: String? = window.withUnsafeBufferPointer { bytes in
                var searchFrom = 0
                while searchFrom < bytes.count, let nul = memchr(bytes.baseAddress! + searchFrom, 0, bytes.count - searchFrom) {
                    let end = bytes.baseAddress!.distance(to: nul.assumingMemoryBound(to: UInt8.self))
                    searchFrom = end + 1
                    // A binary holds long runs of NULs; step over them without a call per byte.
                    while searchFrom < bytes.count, bytes[searchFrom] == 0 { searchFrom += 1 }
                    guard end >= suffix.count, memcmp(bytes.baseAddress! + end - suffix.count, suffix, suffix.count) == 0 else { continue }
                    // Back to the NUL before the string, or the start of the window.
                    var start = end - suffix.count
                    while start > 0, bytes[start - 1] != 0, end - start < longestPath { start -= 1 }
                    guard start > 0 || windowStartsAString, end - start < longestPath else { continue }
                    if let path = Self.miniBrowserPath(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return path }
                }
                return nil
            }
            if let found { return found }
            // Keep the tail, where a string may go on into the next piece.
            if window.count > longestPath {
                windowStartsAString = window[window.count - longestPath - 1] == 0
                window.removeFirst(window.count - longestPath)
            }
        }
        return nil
    }

    /// `string` as a path when it is absolute, ends in `/MiniBrowser` and names an executable file.
    private static func miniBrowserPath(_ string: UnsafeBufferPointer<UInt8>) -> String? {
        guard string.first == UInt8(ascii: "/") else { return nil }
        let candidate = String(decoding: string, as: UTF8.self)
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
