import Foundation
import UserScripts

/// The library's automatic scripts for one address, read before the page opens: what a run
/// installs before the document starts and what it runs once the page has loaded there.
///
/// A 1,000-script library's index and matcher take megabytes; a run that keeps only what
/// matches its address can let the library go before the browser starts
/// (``LibraryRun/runMatching(planned:library:on:host:early:)`` opens it again only when the
/// page ends up at another address).
///
/// ```swift
/// let planned = try PlannedScripts(library: try ScriptLibrary(directory: folder), address: address)
/// // the library is no longer needed here
/// let run = try await LibraryRun.runMatching(planned: planned, library: { try ScriptLibrary(directory: folder) }, on: page)
/// ```
public struct PlannedScripts: Sendable {
    /// The address the scripts were matched against; `nil` for one that is not a page's.
    public let url: PageURL?
    /// The matching scripts that run by themselves there, in library order.
    public let automatic: [ScriptMatch]
    /// The library's folder (where the GM API keeps the scripts' values).
    public let libraryDirectory: URL

    /// Reads the scripts of `library` that run by themselves at `address`.
    ///
    /// - Throws: ``UserScripts/LibraryError`` when the library cannot be read; an address that
    ///   is not a page's (`about:blank`, a malformed one) plans no script.
    public init(library: ScriptLibrary, address: String) throws(LibraryError) {
        libraryDirectory = library.directory
        guard let url = try? PageURL(address) else {
            self.url = nil
            automatic = []
            return
        }
        self.url = url
        automatic = try library.which(url: url).filter(\.runsAutomatically)
    }

    /// The `document-start` scripts among them, to install before the navigation.
    public var documentStart: [(script: UserScript, id: ScriptID)] {
        automatic.filter { $0.script.script.interpretation.runMode.runAt == .documentStart }.map { ($0.script.script, $0.script.id) }
    }
}
