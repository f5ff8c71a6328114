import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// A `@require` file given by hand, for a host PageScript cannot reach: checked as a download is,
/// then used by the script's runs.
struct DependencySupplyTests {
    static let unreachable = "http://127.0.0.1:9/lib.js"
    static let library = "window.fromLib = 'supplied';\n"

    @Test func aSuppliedFileUnblocksTheScriptAndIsRecordedAsFromItsFile() throws {
        let folder = try TemporaryDirectory()
        let script = try DependencyFetcherTests.script(["// @require \(Self.unreachable)#sha256=\(DependencyFetcherTests.sha256(Self.library))"])
        let cache = DependencyCache(libraryDirectory: folder.url)
        #expect(try cache.missing(for: script, id: "k3m9x2ab").count == 1)

        // Not the file the author pinned: refused, and nothing is recorded.
        #expect(throws: SupplyFailure.self) {
            try cache.supply(Array("window.fromLib = 'other';".utf8), forURL: Self.unreachable, of: script, id: "k3m9x2ab", fromFile: "/tmp/other.js")
        }
        #expect(try cache.missing(for: script, id: "k3m9x2ab").count == 1)
        // A URL the script does not declare: refused with the ones it does.
        do {
            try cache.supply(Array(Self.library.utf8), forURL: "http://127.0.0.1:9/other.js", of: script, id: "k3m9x2ab", fromFile: "/tmp/lib.js")
            Issue.record("an undeclared URL was taken")
        } catch {
            guard case let .notDeclared(_, declared) = error else { Issue.record("\(error)"); return }
            #expect(declared == ["\(Self.unreachable)#sha256=\(DependencyFetcherTests.sha256(Self.library))"])
        }

        let supplied = try cache.supply(Array(Self.library.utf8), forURL: Self.unreachable, of: script, id: "k3m9x2ab", fromFile: "/tmp/lib.js")
        #expect(supplied.map(\.kind) == [.require])
        #expect(try cache.missing(for: script, id: "k3m9x2ab").isEmpty)
        let files = try cache.runFiles(for: script, id: "k3m9x2ab")
        #expect(files.requires.map(\.text) == [Self.library])
        #expect(files.requires.first?.fetchedFrom == "file:///tmp/lib.js")
    }
}
