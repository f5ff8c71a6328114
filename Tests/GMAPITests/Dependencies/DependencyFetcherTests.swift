import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// Fetching `@require`/`@resource` files from real loopback servers into a real library folder.
struct DependencyFetcherTests {
    static let jquery = "/* a library */ window.$ = function () { return 'jq'; };\n"
    static let css = "body { color: red }\n"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 2, 3]
    /// Generous: a test that expects an answer must not fail because the machine is busy.
    static let quick = DependencyFetcher.Configuration(maximumFileBytes: 1024 * 1024, timeout: 120, connectTimeout: 60)

    static func cdn() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/jquery.js": .text(jquery, type: "application/javascript")
            case "/style.css": .text(css, type: "text/css")
            case "/assets/logo.png": LoopbackResponse(status: 200, headers: [("Content-Type", "image/png")], body: png)
            case "/moved.js": .redirect("/jquery.js", status: 301)
            default: .notFound
            }
        }
    }

    static func script(_ lines: [String], name: String = "Needs files") throws -> UserScript {
        UserScript(text: (["// ==UserScript==", "// @name \(name)"] + lines + ["// ==/UserScript==", "$();"]).joined(separator: "\n") + "\n")
    }

    static func sha256(_ text: String) -> String { (try? ReferenceDigest.hex("sha256", of: Array(text.utf8))) ?? "unavailable" }

    func withFetcher<T: Sendable>(_ folder: TemporaryDirectory, configuration: DependencyFetcher.Configuration = Self.quick,
                                  _ body: (DependencyFetcher) async throws -> T) async throws -> T {
        try await DependencyFetcher.withFetcher(cache: DependencyCache(libraryDirectory: folder.url), configuration: configuration, body)
    }

    @Test func requiresAndResourcesAreFetchedCachedAndReadyForARun() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.cdn()
        defer { server.stop() }
        let script = try Self.script([
            "// @require \(server.url("/jquery.js"))#sha256=\(Self.sha256(Self.jquery))",
            "// @resource css \(server.url("/style.css"))",
            "// @resource logo \(server.url("/assets/logo.png"))",
            "// @require \(server.url("/moved.js"))",
        ])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.isComplete)
        #expect(report.entries.count == 4)

        let files = try DependencyCache(libraryDirectory: folder.url).runFiles(for: script, id: "k3m9x2ab")
        #expect(files.isRunnable)
        #expect(files.requires.map(\.text) == [Self.jquery, Self.jquery])
        #expect(files.requires.last?.fetchedFrom == server.url("/jquery.js"))
        #expect(files.resource(named: "css")?.text == Self.css)
        #expect(files.resource(named: "css")?.dataURL == "data:text/css;base64," + Data(Self.css.utf8).base64EncodedString())
        #expect(files.resource(named: "logo")?.bytes == Self.png)
        #expect(files.resource(named: "logo")?.dataURL.hasPrefix("data:image/png;base64,") == true)
        #expect(files.resource(named: "nothing") == nil)
        // Content-addressed: the same jQuery twice is one file.
        #expect(try folder.entries(".pagescript-cache").count == 3)
        #expect(try folder.entries(".pagescript-cache").contains(Self.sha256(Self.jquery)))

        // Fetched once: a second fetch asks the server for nothing.
        let before = server.received.count
        let again = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(again.entries.allSatisfy { if case .alreadyCached = $0.outcome { true } else { false } })
        #expect(server.received.count == before)
    }

    @Test func aHashMismatchRefusesTheFileAndSaysWhichHashFailed() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.cdn()
        defer { server.stop() }
        let wrong = String(repeating: "ab", count: 32)
        let script = try Self.script(["// @require \(server.url("/jquery.js"))#md5=\(try ReferenceDigest.hex("md5", of: Array(Self.jquery.utf8))),sha256=\(wrong)"])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        let failure = try #require(report.failures.first?.failure)
        guard case .integrityMismatch(_, let hash, let actual) = failure else {
            Issue.record("expected an integrity mismatch, got \(failure)")
            return
        }
        #expect(hash == "sha256=\(wrong)")
        #expect(actual == "sha256=\(Self.sha256(Self.jquery))")
        // Refused means not cached for the script: it is not runnable, and running it says why.
        let missing = try DependencyCache(libraryDirectory: folder.url).missing(for: script, id: "k3m9x2ab")
        #expect(missing.count == 1)
        #expect(missing.first?.description.contains("does not match its integrity hash sha256=\(wrong)") == true)
        #expect((try? folder.entries(".pagescript-cache")) ?? [] == [])
    }

    @Test func a404AndADeadServerLeaveTheScriptNotRunnableUntilAFetchSucceeds() async throws {
        let folder = try TemporaryDirectory()
        // Held, not freed: a port freed here was given to a server of a test running beside this
        // one in a full run, which answered 404 for it.
        let dead = try RefusingPort()
        defer { dead.stop() }
        let deadPort = dead.port
        let server = try Self.cdn()
        defer { server.stop() }
        let script = try Self.script([
            "// @require \(server.url("/gone.js"))",
            "// @require http://127.0.0.1:\(deadPort)/lib.js",
            "// @require \(server.url("/jquery.js"))",
        ])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.failures.count == 2)
        #expect(report.failures.first?.failure == .httpStatus(url: server.url("/gone.js"), status: 404, reason: "Not Found"))
        guard case .network? = report.failures.last?.failure else {
            Issue.record("expected a connection failure, got \(String(describing: report.failures.last))")
            return
        }
        #expect(report.failures.last?.failure.description == "http://127.0.0.1:\(deadPort)/lib.js could not be reached: the connection was refused (nothing listens on that port)")
        let cache = DependencyCache(libraryDirectory: folder.url)
        let files = try cache.runFiles(for: script, id: "k3m9x2ab")
        #expect(!files.isRunnable)
        #expect(files.missing.map(\.dependency.line) == [3, 4])
        #expect(files.missing.first?.description == "line 3: @require \(server.url("/gone.js")) is missing (\(server.url("/gone.js")) answered HTTP 404 Not Found)")
        #expect(files.requires.map(\.text) == [Self.jquery])

        // The author fixes the URL: the edited script fetches only what is new.
        let fixed = try Self.script(["// @require \(server.url("/jquery.js"))", "// @require \(server.url("/style.css"))"])
        let refetch = try await withFetcher(folder) { try await $0.fetch(for: fixed, id: "k3m9x2ab") }
        #expect(refetch.isComplete)
        #expect(try cache.runFiles(for: fixed, id: "k3m9x2ab").isRunnable)
    }

    @Test func aServerThatNeverAnswersIsATimeoutNotAHang() async throws {
        let folder = try TemporaryDirectory()
        let silent = try SilentListener()
        defer { silent.stop() }
        let script = try Self.script(["// @require http://127.0.0.1:\(silent.port)/slow.js"])
        let report = try await withFetcher(folder, configuration: .init(maximumFileBytes: 1024, timeout: 1, connectTimeout: 1)) {
            try await $0.fetch(for: script, id: "k3m9x2ab")
        }
        #expect(report.failures.first?.failure == .timedOut(url: "http://127.0.0.1:\(silent.port)/slow.js", seconds: 1))
    }

    @Test func aRedirectToAnotherHostIsFollowedAndRecorded() async throws {
        let folder = try TemporaryDirectory()
        let other = try LoopbackServer(host: "127.0.0.2") { _ in .text(Self.jquery, type: "application/javascript") }
        defer { other.stop() }
        let target = other.url("/cdn/jquery.js")
        let origin = try LoopbackServer { _ in .redirect(target, status: 302) }
        defer { origin.stop() }
        let script = try Self.script(["// @require \(origin.url("/latest.js"))#sha256=\(Self.sha256(Self.jquery))"])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.entries.first?.outcome == .fetched(sha256: Self.sha256(Self.jquery), size: Self.jquery.utf8.count, from: target))
        let files = try DependencyCache(libraryDirectory: folder.url).runFiles(for: script, id: "k3m9x2ab")
        #expect(files.requires.first?.fetchedFrom == target)
        #expect(other.received.count == 1)
    }

    @Test func aRedirectOutOfHTTPOrDownToPlainHTTPIsRefused() async throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackServer { _ in .redirect("file:///etc/passwd") }
        defer { server.stop() }
        let script = try Self.script(["// @require \(server.url("/x.js"))"])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        guard case .redirectRefused(_, let location, _)? = report.failures.first?.failure else {
            Issue.record("expected a refused redirect, got \(report.entries)")
            return
        }
        #expect(location == "file:///etc/passwd")
    }

    @Test func a50MegabyteBodyIsRefusedAboveTheLimit() async throws {
        let folder = try TemporaryDirectory()
        let fiftyMegabytes = [UInt8](repeating: 0x20, count: 50 * 1024 * 1024)
        let server = try LoopbackServer { request in
            request.path == "/declared.js" ? LoopbackResponse(status: 200, headers: [], body: fiftyMegabytes) : .chunked(chunkSize: 1024 * 1024, count: 50)
        }
        defer { server.stop() }
        let script = try Self.script(["// @require \(server.url("/declared.js"))", "// @resource big \(server.url("/streamed.bin"))"])
        // The default limit, 16 MiB.
        let report = try await withFetcher(folder, configuration: .init(timeout: 120)) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.failures.map(\.failure) == [
            .tooLarge(url: server.url("/declared.js"), limit: 16 * 1024 * 1024),
            .tooLarge(url: server.url("/streamed.bin"), limit: 16 * 1024 * 1024),
        ])
        #expect(report.failures.first?.failure.description.contains("16 MiB") == true)
    }

    @Test func relativeResourceURLsAreReadAgainstTheDownloadURL() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.cdn()
        defer { server.stop() }
        let script = try Self.script([
            "// @downloadURL \(server.url("/scripts/tidy.user.js"))",
            "// @updateURL https://elsewhere.invalid/tidy.meta.js",
            "// @resource logo ../assets/logo.png",
            "// @resource css /style.css",
        ])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.isComplete)
        let files = try DependencyCache(libraryDirectory: folder.url).runFiles(for: script, id: "k3m9x2ab")
        #expect(files.resource(named: "logo")?.bytes == Self.png)
        #expect(files.resource(named: "css")?.text == Self.css)

        let orphan = try Self.script(["// @resource logo assets/logo.png"])
        let failed = try await withFetcher(folder) { try await $0.fetch(for: orphan, id: "other123") }
        #expect(failed.failures.first?.failure.description.contains("no @downloadURL or @updateURL") == true)
    }

    @Test func aDamagedCacheFileCountsAsMissingAndIsNeverRun() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.cdn()
        defer { server.stop() }
        let script = try Self.script(["// @require \(server.url("/jquery.js"))"])
        _ = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        try folder.write("window.evil = 1;", to: ".pagescript-cache/\(Self.sha256(Self.jquery))")
        let cache = DependencyCache(libraryDirectory: folder.url)
        #expect(try cache.runFiles(for: script, id: "k3m9x2ab").missing.count == 1)
        // A fetch repairs it.
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        #expect(report.isComplete)
        #expect(try cache.runFiles(for: script, id: "k3m9x2ab").requires.first?.text == Self.jquery)
    }

    @Test func twoScriptsShareOneCachedFile() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.cdn()
        defer { server.stop() }
        let first = try Self.script(["// @require \(server.url("/jquery.js"))"], name: "First")
        let second = try Self.script(["// @require \(server.url("/jquery.js"))#sha256=\(Self.sha256(Self.jquery))"], name: "Second")
        try await withFetcher(folder) { fetcher in
            _ = try await fetcher.fetch(for: first, id: "first111")
            _ = try await fetcher.fetch(for: second, id: "second22")
        }
        #expect(try folder.entries(".pagescript-cache") == [Self.sha256(Self.jquery)])
        #expect(try folder.entries(".pagescript-fetched") == ["first111.json", "second22.json"])
    }

    @Test(arguments: [
        ("// @require", "the line names no URL"),
        ("// @require ftp://example.com/x.js", "scripts do not run on `ftp:`"),
        ("// @require file:///etc/passwd", "only http and https"),
        ("// @require https://example.com/x.js#sha256=abc", "is malformed"),
    ])
    func badLinesAreReportedWithTheReason(line: String, reason: String) async throws {
        let folder = try TemporaryDirectory()
        let script = try Self.script([line])
        let report = try await withFetcher(folder) { try await $0.fetch(for: script, id: "k3m9x2ab") }
        let failure = try #require(report.failures.first?.failure)
        #expect(failure.description.contains(reason), "\(failure)")
    }

    @Test func theDeclaredLinesAreReadInOrder() throws {
        let script = try Self.script([
            "// @require   https://a.test/1.js",
            "// @resource  icon   https://a.test/i.png#md5=00",
            "// @grant     GM_getResourceURL",
            "// @require   https://a.test/2.js",
            "// @resource  broken",
        ])
        let declared = ScriptDependency.declared(in: script)
        #expect(declared.map(\.description) == [
            "@require https://a.test/1.js", "@resource icon https://a.test/i.png#md5=00", "@require https://a.test/2.js", "@resource broken ",
        ])
        #expect(declared.map(\.line) == [3, 4, 6, 7])
    }
}
