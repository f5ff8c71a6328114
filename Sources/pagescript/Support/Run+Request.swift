import ArgumentParser
import Engines
import Foundation
import PageRuntime
import UserScripts

extension Run {
    /// The run the options describe, on `engine` (the one `--engine` names when `nil`).
    func request(address: String, on engine: Engine? = nil) throws -> RunRequest {
        let script: RunRequest.Script
        if let chosen = try self.choice.runScript(library: libraryOptions, menu: menu, withLibrary: withLibrary) {
            script = chosen
        } else {
            // One run, one reading of the folder: the scripts installed before the page opens and
            // those that run after it loads come from the same look at the library.
            let planned = try PlannedScripts(library: libraryOptions.openForReading(reloadPolicy: .manual), address: address)
            script = .library(planned) { [libraryOptions] in try libraryOptions.openForReading(reloadPolicy: .manual) }
        }
        let settings = try browserSettings.settings(for: engineOptions)
        if let engine, let problem = settings.problem(engine: engine, browserName: nil, attached: false) { throw ValidationError(problem) }
        // A browser never asked for a picture renders as a batch's does.
        var choice = engineOptions.choice(takingScreenshots: pictureOptions.screenshot != nil, viewport: pictureOptions.viewport, settings: settings)
        if let engine, case let .local(_, options) = choice { choice = .local(engine, options: options) }
        var request = RunRequest(engine: choice, address: address, script: script, timeout: loadOptions.timeout)
        request.loadTimeout = loadOptions.loadTimeout
        request.waitUntil = loadOptions.waitUntilOption.waitUntil
        request.failsOnHTTPError = loadOptions.failsOnHTTPError
        request.dialogs = dialogOptions.dialogs
        request.screenshot = try pictureOptions.request(engine: choice)
        request.bypassesContentSecurityPolicy = engineOptions.bypassesContentSecurityPolicy
        request.inspection = try self.choice.inspection(withLibrary: withLibrary)
        request.connecting = self.choice.connect
        request.downloads = self.choice.downloadOptions.folder
        return request
    }
}
