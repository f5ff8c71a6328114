import ArgumentParser
import Engines

/// `--engine`'s value: one engine, a comma list (`webkit,chromium`), or `all`, every engine
/// installed here; only `run` takes more than one (``EngineOptions/requireOneEngine()``).
struct EngineSelection: ExpressibleByArgument, Equatable {
    /// The engines named, in the order given, each once; empty for `all`.
    let named: [Engine]

    /// Whether `all` was given.
    var isAll: Bool { named.isEmpty }

    /// Whether more than one engine may be meant.
    var isSeveral: Bool { named.count != 1 }

    init?(argument: String) {
        if argument == "all" {
            named = []
            return
        }
        var engines: [Engine] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let engine = Engine(rawValue: name.trimmingCharacters(in: .whitespaces)) else { return nil }
            if !engines.contains(engine) { engines.append(engine) }
        }
        named = engines
    }

    static var allValueStrings: [String] {
        Engine.allCases.map(\.rawValue) + ["all"]
    }

    /// The engines to run on: those named, or for `all` every engine installed here (in
    /// `Engine.allCases` order), with those skipped because they are not.
    func engines(path: String? = nil) -> (run: [Engine], skipped: [Engine]) {
        guard isAll else { return (named, []) }
        let survey = EngineInventory.installation(path: path)
        return (survey.installed, survey.missing)
    }
}

extension EngineOptions {
    /// For commands that open one browser: refuses a list of engines and `all`.
    func requireOneEngine() throws {
        if chosenEngines?.isSeveral == true { throw ValidationError("--engine takes one engine here; only run takes a list or 'all'") }
    }

    /// Several engines each start a browser of their own, so nothing that names one browser goes with them.
    func validateEngineList() throws {
        if chosenEngines?.isSeveral == true, attach != nil || webDriverURL != nil || profile != nil || bypassesContentSecurityPolicy {
            throw ValidationError("several engines each start a browser of their own: leave out --attach, --webdriver-url, --profile and --bypass-csp")
        }
    }
}
