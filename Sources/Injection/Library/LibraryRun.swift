import UserScripts
import WebDriver

/// Runs the library's scripts that belong on the open page, the way a userscript manager would.
public enum LibraryRun {
    /// The automatic scripts for the page the browser is on, each run in its own round trip and
    /// its own scope, so that one script's exception does not stop the others.
    ///
    /// Which scripts belong is decided from the address the browser reports (which the page's own
    /// script cannot disguise), and each script runs only if the page is still at exactly that
    /// address when it starts: a page that moves to another site in between gets nothing.
    ///
    /// - Parameter excluded: Scripts not to run again (those that already ran in this document,
    ///   when a single-page navigation changed the address).
    /// - Returns: The address matched against, and one result per script, in library order.
    public static func runMatching(
        library: ScriptLibrary, on page: PageSession, excluding excluded: Set<ScriptID> = []
    ) async throws(InjectionError) -> (url: String, results: [LibraryScriptResult]) {
        let address = try await page.browserURL()
        guard let url = try? PageURL(address) else { return (address, []) }
        let matches: [ScriptMatch]
        do {
            matches = try library.which(url: url).filter { $0.runsAutomatically && !excluded.contains($0.script.id) }
        } catch {
            throw .library(error.description)
        }
        var results: [LibraryScriptResult] = []
        for match in matches {
            let outcome: Result<ScriptResult, InjectionError>
            do {
                outcome = .success(try await page.run(script: match.script.script.text, requiredURL: address, mode: .userscript))
            } catch {
                if case .timedOut = error {
                    results.append(LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: .failure(error)))
                    // A script stuck in a loop holds the page: the ones after it cannot run either.
                    break
                }
                outcome = .failure(error)
            }
            results.append(LibraryScriptResult(script: match.script, pattern: match.pattern, outcome: outcome))
        }
        return (address, results)
    }
}
