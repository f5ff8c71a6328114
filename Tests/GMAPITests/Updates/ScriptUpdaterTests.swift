import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `scripts update` against a real loopback server and a real library folder.
struct ScriptUpdaterTests {
    final class Site: @unchecked Sendable {
        let lock = NSLock()
        var files: [String: String] = [:]
        subscript(path: String) -> String? {
            get { lock.lock(); defer { lock.unlock() }; return files[path] }
            set { lock.lock(); files[path] = newValue; lock.unlock() }
        }
    }

    static func script(version: String, server: LoopbackServer, body: String = "tidy();", extra: [String] = []) -> String {
        ([
            "// ==UserScript==",
            "// @name         Tidy",
            "// @version      \(version)",
            "// @match        *://example.com/*",
            "// @updateURL    \(server.url("/tidy.meta.js"))",
            "// @downloadURL  \(server.url("/tidy.user.js"))",
        ] + extra + ["// ==/UserScript==", body]).joined(separator: "\n") + "\n"
    }

    /// A library with Tidy 1.0 installed by PageScript, and a server that publishes `version`.
    struct Fixture {
        let folder: TemporaryDirectory
        let library: ScriptLibrary
        let server: LoopbackServer
        let site: Site
        let stored: StoredScript
        let cache: DependencyCache

        init(published version: String, extra: [String] = []) throws {
            folder = try TemporaryDirectory("update")
            library = try ScriptLibrary(directory: folder.url)
            let site = Site()
            self.site = site
            server = try LoopbackServer { request in
                guard let text = site[request.path] else { return .notFound }
                return .text(text, type: "text/javascript")
            }
            let installed = ScriptUpdaterTests.script(version: "1.0", server: server)
            stored = try library.create(text: installed)
            cache = DependencyCache(libraryDirectory: folder.url)
            try cache.recordInstalled(Array(installed.utf8), for: stored.id, from: server.url("/tidy.user.js"))
            publish(version, extra: extra)
        }

        func publish(_ version: String, extra: [String] = []) {
            let full = ScriptUpdaterTests.script(version: version, server: server, body: "tidy(\"\(version)\");", extra: extra)
            site["/tidy.user.js"] = full
            site["/tidy.meta.js"] = full.components(separatedBy: "// ==/UserScript==")[0] + "// ==/UserScript==\n"
        }

        func update(_ stored: StoredScript? = nil, force: Bool = false) async -> ScriptUpdater.Outcome {
            await DependencyFetcher.withFetcher(cache: cache, configuration: .init(timeout: 120)) { fetcher in
                await ScriptUpdater(library: library, fetcher: fetcher).update(stored ?? self.stored, force: force)
            }
        }

        var fileText: String { get throws { try String(contentsOf: stored.file, encoding: .utf8) } }
    }

    @Test func aNewerVersionReplacesTheFileAndTheOldOneGoesToTheTrash() async throws {
        let fixture = try Fixture(published: "1.1")
        defer { fixture.server.stop() }
        try ScriptValueStore(libraryDirectory: fixture.folder.url).apply([.set(key: "kept", value: true)], to: fixture.stored.id)
        let outcome = await fixture.update()
        guard case .updated(let from, let to, let script, let previous, _) = outcome else {
            Issue.record("expected an update, got \(outcome)")
            return
        }
        #expect(from == "1.0")
        #expect(to == "1.1")
        #expect(script.id == fixture.stored.id)
        #expect(script.file == fixture.stored.file)
        #expect(try fixture.fileText == fixture.site["/tidy.user.js"])
        #expect(try String(contentsOf: previous, encoding: .utf8) == Self.script(version: "1.0", server: fixture.server))
        #expect(previous.deletingLastPathComponent().lastPathComponent == ".trash")
        #expect(try fixture.cache.installedSHA256(of: fixture.stored.id) == Array((fixture.site["/tidy.user.js"] ?? "").utf8).sha256Hex)
        #expect(try ScriptValueStore(libraryDirectory: fixture.folder.url).values(of: fixture.stored.id)["kept"] == true)
        #expect(try fixture.library.scripts().count == 1)
        // The version was checked at the .meta.js, the script fetched from the .user.js.
        #expect(fixture.server.received.map(\.path) == ["/tidy.meta.js", "/tidy.user.js"])

        // The next update finds nothing newer and changes nothing.
        let again = await fixture.update(try fixture.library.script(id: fixture.stored.id))
        guard case .upToDate(let installed, let available, _) = again else {
            Issue.record("expected up to date, got \(again)")
            return
        }
        #expect(installed == "1.1")
        #expect(available == "1.1")
    }

    @Test(arguments: ["1.0", "0.9", "1.0.0", "1.0-beta"])
    func aVersionThatIsNotNewerChangesNothing(published: String) async throws {
        let fixture = try Fixture(published: published)
        defer { fixture.server.stop() }
        let before = try fixture.fileText
        let outcome = await fixture.update()
        guard case .upToDate = outcome else {
            Issue.record("expected up to date, got \(outcome)")
            return
        }
        #expect(try fixture.fileText == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file(".trash").path))
    }

    @Test func aFileEditedSinceItWasInstalledIsNeverOverwrittenWithoutForce() async throws {
        let fixture = try Fixture(published: "2.0")
        defer { fixture.server.stop() }
        var edited = fixture.stored
        edited.script.setBody("tidy(); // my own tweak\n")
        edited = try fixture.library.save(edited)
        let outcome = await fixture.update(edited)
        guard case .editedLocally(let installed, let available, let neverRecorded) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(installed == "1.0")
        #expect(available == "2.0")
        #expect(!neverRecorded)
        #expect(try fixture.fileText.contains("my own tweak"))

        let forced = await fixture.update(edited, force: true)
        guard case .updated(_, _, _, let previous, _) = forced else {
            Issue.record("expected an update, got \(forced)")
            return
        }
        #expect(try String(contentsOf: previous, encoding: .utf8).contains("my own tweak"))
        #expect(try fixture.fileText == fixture.site["/tidy.user.js"])
    }

    @Test func aFilePageScriptNeverInstalledCountsAsEdited() async throws {
        let fixture = try Fixture(published: "2.0")
        defer { fixture.server.stop() }
        try FileManager.default.removeItem(at: fixture.folder.file(".pagescript-fetched"))
        let outcome = await fixture.update()
        guard case .editedLocally(_, _, let neverRecorded) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(neverRecorded)
    }

    @Test func aNewVersionWhoseFilesCannotBeFetchedIsNotInstalled() async throws {
        let fixture = try Fixture(published: "2.0")
        defer { fixture.server.stop() }
        fixture.publish("2.0", extra: ["// @require \(fixture.server.url("/missing-lib.js"))"])
        let before = try fixture.fileText
        let outcome = await fixture.update()
        guard case .failed(let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("version 2.0 was not installed"))
        #expect(reason.contains("HTTP 404"))
        #expect(try fixture.fileText == before)

        fixture.site["/missing-lib.js"] = "window.lib = true;\n"
        let retried = await fixture.update()
        guard case .updated(_, _, let script, _, let files) = retried else {
            Issue.record("expected an update, got \(retried)")
            return
        }
        #expect(files.isComplete)
        #expect(try fixture.cache.runFiles(for: script.script, id: script.id).requires.map(\.text) == ["window.lib = true;\n"])
    }

    @Test func anUpdateCheckThatFailsChangesNothing() async throws {
        let fixture = try Fixture(published: "2.0")
        defer { fixture.server.stop() }
        fixture.site["/tidy.meta.js"] = nil
        let outcome = await fixture.update()
        guard case .failed(let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("HTTP 404"))
    }

    @Test func aMetadataOnlyDownloadIsNeverInstalled() async throws {
        let folder = try TemporaryDirectory("update")
        let site = Site()
        let server = try LoopbackServer { request in site[request.path].map { .text($0) } ?? .notFound }
        defer { server.stop() }
        let library = try ScriptLibrary(directory: folder.url)
        let installed = "// ==UserScript==\n// @name M\n// @version 1\n// @updateURL \(server.url("/m.meta.js"))\n// ==/UserScript==\nrun();\n"
        let stored = try library.create(text: installed)
        let cache = DependencyCache(libraryDirectory: folder.url)
        try cache.recordInstalled(Array(installed.utf8), for: stored.id, from: nil)
        site["/m.meta.js"] = "// ==UserScript==\n// @name M\n// @version 2\n// ==/UserScript==\n"
        let outcome = await DependencyFetcher.withFetcher(cache: cache) { fetcher in
            await ScriptUpdater(library: library, fetcher: fetcher).update(stored)
        }
        guard case .failed(let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("only a metadata block"))
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == installed)
    }

    /// A script imported offline becomes runnable through `scripts update`, with or without an
    /// update URL.
    @Test func updateFetchesTheMissingFilesOfAScriptWithoutAnUpdateURL() async throws {
        let folder = try TemporaryDirectory("update")
        let site = Site()
        let server = try LoopbackServer { request in site[request.path].map { .text($0) } ?? .notFound }
        defer { server.stop() }
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: "// ==UserScript==\n// @name Offline\n// @require \(server.url("/lib.js"))\n// ==/UserScript==\nlib();\n")
        let cache = DependencyCache(libraryDirectory: folder.url)
        let first = try await DependencyFetcher.withFetcher(cache: cache) { try await $0.fetch(for: stored.script, id: stored.id) }
        #expect(!first.isComplete)
        #expect(!(try cache.runFiles(for: stored.script, id: stored.id).isRunnable))

        site["/lib.js"] = "function lib() {}\n"
        let outcome = await DependencyFetcher.withFetcher(cache: cache) { fetcher in
            await ScriptUpdater(library: library, fetcher: fetcher).update(stored)
        }
        guard case .noUpdateURL(let files) = outcome else {
            Issue.record("expected no update URL, got \(outcome)")
            return
        }
        #expect(files.isComplete)
        #expect(try cache.runFiles(for: stored.script, id: stored.id).isRunnable)
    }
}

/// The library's replace-with-trash operation that updates are built on.
struct ScriptLibraryReplacingTests {
    static let v1 = "// ==UserScript==\n// @name R\n// @version 1\n// ==/UserScript==\none();\n"
    static let v2 = "// ==UserScript==\n// @name R\n// @version 2\n// ==/UserScript==\ntwo();\n"
    static let v3 = "// ==UserScript==\n// @name R\n// @version 3\n// ==/UserScript==\nthree();\n"

    @Test func everyReplacedVersionIsKeptInTheTrash() throws {
        let folder = try TemporaryDirectory("replace")
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.v1)
        let (second, firstOld) = try library.replace(stored, withText: Self.v2)
        let (third, secondOld) = try library.replace(second, withText: Self.v3)
        #expect(third.script.text == Self.v3)
        #expect(try String(contentsOf: firstOld, encoding: .utf8) == Self.v1)
        #expect(try String(contentsOf: secondOld, encoding: .utf8) == Self.v2)
        #expect(firstOld != secondOld)
        #expect(try folder.entries(".trash").count == 2)
        #expect(try library.scripts().map(\.id) == [stored.id])
    }

    @Test func aFileChangedSinceItWasReadIsNotReplaced() throws {
        let folder = try TemporaryDirectory("replace")
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.v1)
        let edited = "// ==UserScript==\n// @name R\n// @version 1\n// ==/UserScript==\nmine();\n"
        try Data(edited.utf8).write(to: stored.file)
        #expect(throws: LibraryError.changedOnDisk(path: stored.file.path(percentEncoded: false))) {
            try library.replace(stored, withText: Self.v2)
        }
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == edited)
        #expect(!FileManager.default.fileExists(atPath: folder.file(".trash").path))
    }

    /// An author's new version is installed byte for byte, as an import is: a rule PageScript
    /// cannot read is set aside in its reading of the file, never rewritten in the file.
    @Test func aNewVersionWithAnUnreadableRuleIsTakenAsItIsAndReadBesideIt() throws {
        let folder = try TemporaryDirectory("replace")
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.v1)
        let published = "// ==UserScript==\n// @name R\n// @match not a pattern\n// @run-at document-end\n// ==/UserScript==\n"
        let (updated, _) = try library.replace(stored, withText: published)
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == published)
        #expect(!updated.script.runsAutomatically)
        #expect(updated.interpretation.notes.contains { $0.description.contains("not a pattern") })
    }
}
