import SystemSupport

/// What is installed of each engine, for `pagescript engines`.
public struct EngineInventory: Sendable, Equatable {
    /// The engine.
    public let engine: Engine
    /// The programs found, with their paths.
    public let foundPrograms: [String: String]
    /// The programs not found on `PATH`.
    public let missingPrograms: [String]
    /// The version the driver or browser reports, when installed.
    public let version: String?

    /// Whether everything the engine needs is installed.
    public var isInstalled: Bool { missingPrograms.isEmpty }

    /// One line: name, state and version.
    public var summaryLine: String {
        let state = isInstalled ? "installed" : "not installed"
        let padded = engine.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(padded) \(state)\(version.map { ", \($0)" } ?? "")  (\(engine.displayName))"
    }

    /// Looks at every engine on `path` (defaults to this process's `PATH`).
    public static func survey(path: String? = nil) -> [EngineInventory] {
        Engine.allCases.map { inspect($0, path: path) }
    }

    /// Looks at one engine.
    public static func inspect(_ engine: Engine, path: String? = nil) -> EngineInventory {
        var found: [String: String] = [:]
        var missing: [String] = []
        for program in engine.requiredPrograms {
            if let location = ExecutableLocator.find(program, path: path) { found[program] = location } else { missing.append(program) }
        }
        var version: String?
        if missing.isEmpty {
            let probe: (String, [String])? = switch engine {
            case .webkit: found["WebKitWebDriver"].map { ($0, ["--version"]) }
            case .chromium: found["chromium"].map { ($0, ["--version"]) }
            case .safari: found["safaridriver"].map { ($0, ["--version"]) }
            }
            if let (program, arguments) = probe, let output = CommandOutput.run(program, arguments, timeout: 10) {
                version = output.split(separator: "\n").first.map(String.init)
            }
        }
        return EngineInventory(engine: engine, foundPrograms: found, missingPrograms: missing, version: version)
    }
}
