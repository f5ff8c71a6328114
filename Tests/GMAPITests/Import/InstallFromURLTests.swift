import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `pagescript scripts import URL` and `scripts import BACKUP.zip`, run as the built executable
/// against a real loopback server, and the failures that must write nothing.
struct InstallFromURLTests {
    static func script(version: String, body: String = "tidy();") -> String {
        "// ==UserScript==\r\n// @name        Tidy\r\n// @version     \(version)\r\n// @match       https://example.com/*\r\n"
            + "// @require     lib/helper.js\r\n// ==/UserScript==\r\n\(body)\r\n"
    }

    @Test func aScriptIsInstalledFromItsAddressAndUpdatedFromItLater() async throws {
        let folder = try TemporaryDirectory("install")
        let site = ScriptUpdaterTests.Site()
        site["/scripts/tidy.user.js"] = Self.script(version: "1.0")
        site["/scripts/lib/helper.js"] = "window.helper = 1;"
        let server = try LoopbackServer { request in site[request.path].map { .text($0, type: "text/javascript") } ?? .notFound }
        defer { server.stop() }
        let address = server.url("/scripts/tidy.user.js")

        let installed = try await PageScriptProcess.run(["scripts", "import", address, "-v", "--library", folder.path])
        #expect(installed.status == 0, "\(installed.standardError)")
        let line = installed.standardOutput.split(separator: "\t")
        #expect(line.first == "imported")
        #expect(installed.standardOutput.hasSuffix("\t\(address)\n"))
        #expect(installed.standardError.contains("\(address): runs automatically at document-idle"), "the same notes as for a file")
        #expect(installed.standardError.contains("fetched"), "the relative @require is read against the install address: \(installed.standardError)")

        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.find("Tidy")
        #expect(Array(try Data(contentsOf: stored.file)) == Array(Self.script(version: "1.0").utf8))
        let cache = DependencyCache(libraryDirectory: folder.url)
        #expect(try cache.installedOrigin(of: stored.id) == address)
        #expect(try cache.missing(for: stored.script, id: stored.id).isEmpty)

        site["/scripts/tidy.user.js"] = Self.script(version: "1.1", body: "tidy(2);")
        let updated = try await PageScriptProcess.run(["scripts", "update", "Tidy", "--library", folder.path])
        #expect(updated.status == 0, "\(updated.standardError)")
        #expect(updated.standardOutput == "updated\t\(stored.id)\tTidy\t1.0 -> 1.1\n")
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == Self.script(version: "1.1", body: "tidy(2);"))

        let again = try await PageScriptProcess.run(["scripts", "import", address, "--library", folder.path])
        #expect(again.standardOutput == "unchanged\t\(stored.id)\t\(address)\n")
    }

    enum Failure: String, CaseIterable {
        case notFound, notAUserScript, notText, refused
    }

    @Test(arguments: Failure.allCases)
    func aFailedDownloadSaysWhyAndWritesNothing(failure: Failure) async throws {
        let folder = try TemporaryDirectory("install")
        let server = try LoopbackServer { request in
            switch request.path {
            case "/page.user.js": .text("<!doctype html><title>Install</title><p>not a script</p>", type: "text/html")
            case "/latin1.user.js": LoopbackResponse(status: 200, headers: [("Content-Type", "text/javascript")],
                                                     body: Array("// ==UserScript==\n// @name Caf".utf8) + [0xE9] + Array("\n// ==/UserScript==\n".utf8))
            default: .notFound
            }
        }
        defer { server.stop() }
        let refusing = try RefusingPort()
        defer { refusing.stop() }
        let address = switch failure {
        case .notFound: server.url("/gone.user.js")
        case .notAUserScript: server.url("/page.user.js")
        case .notText: server.url("/latin1.user.js")
        case .refused: refusing.url("/tidy.user.js")
        }
        let outcome = try await PageScriptProcess.run(["scripts", "import", address, "--library", folder.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        let expected = switch failure {
        case .notFound: "pagescript: \(address) answered HTTP 404 Not Found; nothing was imported"
        case .notAUserScript: "pagescript: \(address) does not hold a userscript (it has no // ==UserScript== block); nothing was imported"
        case .notText: "pagescript: \(address) does not hold UTF-8 text; nothing was imported"
        case .refused: "pagescript: \(address) could not be reached: the connection was refused"
        }
        #expect(outcome.standardError.contains(expected), "\(outcome.standardError)")
        #expect(try ScriptLibrary(directory: folder.url).scripts().isEmpty)
        #expect(!(try folder.entries()).contains { $0.hasSuffix(".user.js") || $0 == ".pagescript-fetched" })
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let folder = try TemporaryDirectory("install")
        let silent = try SilentListener()
        defer { silent.stop() }
        let address = "http://127.0.0.1:\(silent.port)/tidy.user.js"
        let importer = ScriptImporter(library: try ScriptLibrary(directory: folder.url), configuration: .init(timeout: 1, connectTimeout: 1))
        await #expect(throws: ScriptImportError.download(address: address, failure: .timedOut(url: address, seconds: 1))) {
            _ = try await importer.importScripts(from: address)
        }
        #expect(try ScriptLibrary(directory: folder.url).scripts().isEmpty)
    }

    @Test func anAddressOfAnotherSchemeIsRefused() async throws {
        let folder = try TemporaryDirectory("install")
        let outcome = try await PageScriptProcess.run(["scripts", "import", "ftp://example.com/tidy.user.js", "--library", folder.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("only http and https addresses are downloaded"))
    }

    @Test func aBackupIsImportedThroughTheCommandWithOneLinePerScript() async throws {
        let folder = try TemporaryDirectory("install")
        let zip = try ZipFixture.write(BackupImportTests.violentmonkeyEntries(), to: "vm.zip", in: folder)
        let outcome = try await PageScriptProcess.run(["scripts", "import", zip, "--verbose", "--library", folder.file("library").path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { [$0[0], $0[2]] } == [["imported", "Dark mode.user.js"], ["imported", "Tidy up.user.js"]])
        #expect(outcome.standardError.hasPrefix("vm.zip: a Violentmonkey backup with 2 scripts\n"))
        #expect(outcome.standardError.contains("  Dark mode.user.js: 4 values restored\n"))
        #expect(outcome.standardError.contains("  Dark mode.user.js: not carried over: @match rules added in Violentmonkey (custom.match): https://dark.example/*\n"))
        let values = try await PageScriptProcess.run(["scripts", "values", "Dark mode", "--library", folder.file("library").path])
        #expect(values.standardOutput == "theme\t\"dark\"\ncount\t3\nseen\ttrue\nprefs\t{\"size\":[1,2]}\n")
        let list = try await PageScriptProcess.run(["scripts", "list", "--library", folder.file("library").path])
        #expect(list.standardOutput.split(separator: "\n").contains { $0.contains("Dark mode") && $0.contains("disabled") }, "\(list.standardOutput)")
    }
}
