import Engines
import Foundation
import PageRuntime
import SystemSupport

/// Where a batch's sessions come from, for the engine the user chose: a local WebKit, Chromium or Firefox
/// started by the batch, or a remote WebDriver endpoint, each with the user's browser settings
/// (``Engines/BrowserSettings``).
public enum SessionSources {
    /// The source for `choice`.
    ///
    /// - Parameter capabilities: A JSON object of more capabilities for the new sessions, added
    ///   to those of the choice's ``Engines/BrowserSettings``, or `nil`.
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
            var settings = options.settings
            settings.capabilities += try extraCapabilities(capabilities)
            switch engine {
            case .chromium: return LocalChromiumSource(language: options.language, settings: settings)
            case .firefox: return LocalFirefoxSource(language: options.language, settings: settings)
            case .webkit, .safari: return LocalWebKitSource(language: options.language, settings: settings)
            }
        case let .remote(endpoint, browserName, settings):
            return RemoteSource(endpoint: endpoint, browserName: browserName, capabilities: try extraCapabilities(capabilities), settings: settings)
        }
    }

    /// `--capabilities`, parsed.
    static func extraCapabilities(_ text: String?) throws(BatchSetupError) -> [(key: String, value: JSONValue)] {
        guard let text else { return [] }
        guard case let .object(members)? = try? JSONValue(parsing: text) else { throw .capabilitiesNotAnObject }
        return members
    }
}
