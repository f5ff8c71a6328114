import Foundation
import UserScripts

/// `pagescript scripts update`: brings a script up to its author's newest version, and fetches
/// whatever `@require`/`@resource` files it is missing.
///
/// 1. The version is checked at `@updateURL` (often a `.meta.js` holding only the metadata),
///    else at `@downloadURL`, else at the address the script was installed from
///    (``DependencyCache/installedOrigin(of:)``: `scripts import URL` records it, as the managers
///    keep their install address), and compared with the installed `@version` in Tampermonkey's
///    ordering (``ScriptVersion``). Nothing changes unless the author's version is newer.
/// 2. A newer script is downloaded from `@downloadURL` (else the install address, else
///    `@updateURL`) and must itself carry the newer version.
/// 3. A file edited since PageScript installed or last updated it is never replaced unless
///    forced: the SHA-256 of the installed file is recorded beside it
///    (``DependencyCache/recordInstalled(_:for:from:)``), and a file without such a record
///    counts as edited, since nothing says otherwise.
/// 4. The new version's `@require` and `@resource` files are fetched *before* the file is
///    replaced, so a failed fetch leaves the working version in place.
/// 5. The file is replaced atomically and the old one kept in `.trash/`
///    (`ScriptLibrary.replace(_:withText:overwritingChangesOnDisk:)`); the script keeps its ID,
///    file name, values and switches.
///
/// When there is no newer version (or no address to check), the script's missing files are fetched
/// again: that is how a script imported offline becomes runnable.
///
/// ```swift
/// let updater = ScriptUpdater(library: library, fetcher: fetcher)
/// switch await updater.update(try library.find("tidy"), force: false) {
/// case .updated(let from, let to, _, _, _): print("updated \(from ?? "-") -> \(to)")
/// default: break
/// }
/// ```
public struct ScriptUpdater: Sendable {
    /// What one update did.
    public enum Outcome: Sendable {
        /// The file was replaced by a newer version.
        case updated(from: String?, to: String, script: StoredScript, previousFile: URL, files: DependencyReport)
        /// No newer version; `files` says what was fetched of the script's missing files.
        case upToDate(installed: String?, available: String?, files: DependencyReport)
        /// The script names no `@updateURL` or `@downloadURL` and was not installed from an
        /// address; its missing files were fetched.
        case noUpdateURL(files: DependencyReport)
        /// A newer version exists, but the file was edited since PageScript installed it: not
        /// replaced without `force`.
        case editedLocally(installed: String?, available: String, neverRecorded: Bool)
        /// The check or the download failed, or the new version or its files were refused;
        /// nothing was changed.
        case failed(String)
    }

    /// The library whose files are replaced.
    public let library: ScriptLibrary
    /// Downloads the script and its files.
    public let fetcher: DependencyFetcher

    /// An updater for `library`, downloading through `fetcher`.
    public init(library: ScriptLibrary, fetcher: DependencyFetcher) {
        self.library = library
        self.fetcher = fetcher
    }

    /// Updates one script (see the type's discussion).
    ///
    /// - Parameter force: Replace the file even if it was edited since PageScript installed it.
    public func update(_ stored: StoredScript, force: Bool = false) async -> Outcome {
        let script = stored.script
        let updateURL = script.value(for: "updateURL")
        let origin: String?
        do {
            origin = try fetcher.cache.installedOrigin(of: stored.id)
        } catch {
            return .failed(error.description)
        }
        // Violentmonkey's order: the file's @downloadURL, else where it was installed from.
        let downloadURL = script.value(for: "downloadURL") ?? origin
        guard let checkURL = updateURL ?? downloadURL else {
            return await fetchMissing(stored) { .noUpdateURL(files: $0) }
        }
        let announced: UserScript
        switch await downloadScript(checkURL) {
        case .success(let script): announced = script
        case .failure(let reason): return .failed(reason)
        }
        guard let available = announced.version else {
            return .failed("\(checkURL) has no @version, so it cannot be compared with the installed version")
        }
        if let installed = script.version, ScriptVersion(available) <= ScriptVersion(installed) {
            return await fetchMissing(stored) { .upToDate(installed: installed, available: available, files: $0) }
        }

        let sourceURL = downloadURL ?? checkURL
        let newScript: UserScript
        let newText: String
        if sourceURL == checkURL, announced.body.contains(where: { !$0.isWhitespace }) {
            newScript = announced
            newText = announced.text
        } else {
            switch await downloadScript(sourceURL) {
            case .success(let script): (newScript, newText) = (script, script.text)
            case .failure(let reason): return .failed(reason)
            }
        }
        guard newScript.body.contains(where: { !$0.isWhitespace }) else {
            return .failed("\(sourceURL) holds only a metadata block, and the script names no @downloadURL to fetch the whole script from")
        }
        guard let newVersion = newScript.version, script.version.map({ ScriptVersion(newVersion) > ScriptVersion($0) }) ?? true else {
            return .failed("\(sourceURL) holds version \(newScript.version ?? "(none)"), which is not newer than the installed \(script.version ?? "(none)")")
        }

        let recorded: String?
        do {
            recorded = try fetcher.cache.installedSHA256(of: stored.id)
        } catch {
            return .failed(error.description)
        }
        if !force, recorded != Array(script.text.utf8).sha256Hex {
            return .editedLocally(installed: script.version, available: newVersion, neverRecorded: recorded == nil)
        }

        let files: DependencyReport
        do {
            files = try await fetcher.fetch(for: newScript, id: stored.id)
        } catch {
            return .failed(error.description)
        }
        guard files.isComplete else {
            let reasons = files.failures.map { "  \($0.dependency): \($0.failure)" }.joined(separator: "\n")
            return .failed("version \(newVersion) was not installed, because files it needs could not be fetched:\n\(reasons)")
        }
        do {
            let (replaced, previous) = try library.replace(stored, withText: newText)
            try fetcher.cache.recordInstalled(Array(newText.utf8), for: stored.id, from: sourceURL)
            return .updated(from: script.version, to: newVersion, script: replaced, previousFile: previous, files: files)
        } catch let error as LibraryError {
            return .failed(error.description)
        } catch {
            return .failed("\(error)")
        }
    }

    private func fetchMissing(_ stored: StoredScript, _ outcome: (DependencyReport) -> Outcome) async -> Outcome {
        do {
            return outcome(try await fetcher.fetch(for: stored.script, id: stored.id))
        } catch {
            return .failed(error.description)
        }
    }

    private enum DownloadResult {
        case success(script: UserScript)
        case failure(String)
    }

    /// Downloads a script (or its `.meta.js`) and reads it; the text must be UTF-8.
    private func downloadScript(_ text: String) async -> DownloadResult {
        let url: PageURL
        do {
            url = try PageURL(text)
        } catch {
            return .failure("the update URL \(text) cannot be read: \(error)")
        }
        guard url.scheme != .file else { return .failure("the update URL \(text) is not an http or https URL") }
        let download: DependencyFetcher.Download
        do {
            download = try await fetcher.download(url)
        } catch {
            return .failure("the update check failed: \(error)")
        }
        guard let decoded = String(validating: download.bytes, as: UTF8.self) else {
            return .failure("\(download.finalURL) is not UTF-8 text")
        }
        let script = UserScript(text: decoded, fallbackName: "update")
        guard script.hasMetadataBlock else {
            return .failure("\(download.finalURL) is not a userscript: it has no ==UserScript== block")
        }
        return .success(script: script)
    }
}
