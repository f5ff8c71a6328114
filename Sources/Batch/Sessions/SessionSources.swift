import Engines
import Foundation
import PageRuntime
import SystemSupport

/// Where a batch's sessions come from, for the engine the user chose: a local WebKit or Chromium
/// started by the batch, or a remote WebDriver endpoint with the user's extra capabilities.
public enum SessionSources {
    /// The source for `choice`.
    ///
    /// - Parameter capabilities: `--capabilities`: a JSON object of more capabilities for a
    ///   remote endpoint's new sessions, or `nil`.
    /// - Throws: ``BatchSetupError`` for a local Safari (one automation session at a time), a
    ///   browser the user attaches to (a batch would take over
    ///   and close its tabs), a visible browser or a kept profile, or capabilities that are not a
    ///   JSON object.
    public static func source(for choice: EngineChoice, capabilities: String? = nil) throws(BatchSetupError) -> any SessionSource {
        switch choice {
        case let .local(engine, options):
            guard engine != .safari else { throw .safariRefused }
            guard options.attachAddress == nil else { throw .attachRefused }
            guard options.display == .hidden, options.profileDirectory == nil else { throw .visibleOrKeptBrowserRefused }
            return engine == .chromium ? LocalChromiumSource(language: options.language) : LocalWebKitSource(language: options.language)
        case let .remote(endpoint, browserName):
            return RemoteSource(endpoint: endpoint, browserName: browserName, capabilities: try extraCapabilities(capabilities))
        }
    }

    /// `--capabilities`, parsed.
    static func extraCapabilities(_ text: String?) throws(BatchSetupError) -> [(key: String, value: JSONValue)] {
        guard let text else { return [] }
        guard case let .object(members)? = try? JSONValue(parsing: text) else { throw .capabilitiesNotAnObject }
        return members
    }
}
