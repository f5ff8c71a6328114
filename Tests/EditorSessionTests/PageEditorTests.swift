import EditorSession
import Foundation
import PageRuntime
import SystemSupport
import TerminalUI
import Testing
import TestSupport
import UserScripts

/// `PageEditor.edit` on a real page, with a real library folder.
@Suite(.serialized)
struct PageEditorTests {
    @Test func aTerminalThatCannotBeUsedIsATerminalFailureAndClosesThePage() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Edited</title>"])
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        // A pipe is not a terminal: the editor cannot put it in raw mode.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let opened = OpenedFlag()
        await #expect(throws: PageEditor.Failure.self) {
            _ = try await PageEditor.edit(
                url: server.url(), on: .local(.webkit), library: folder.library, scriptTimeout: 10,
                terminal: TerminalDevice(input: ends[0], output: ends[1]), onPageOpen: { opened.set() })
        }
        #expect(opened.isSet, "the page was never opened, so the terminal was never tried")
        do {
            _ = try await PageEditor.edit(url: server.url(), on: .local(.webkit), library: folder.library, scriptTimeout: 10,
                                          terminal: TerminalDevice(input: ends[0], output: ends[1]))
        } catch {
            guard case let .terminal(reason) = error else {
                Issue.record("expected a terminal failure, got \(error)")
                return
            }
            #expect(reason == .notATerminal(fileDescriptor: ends[0]))
            #expect(error.description == "the terminal failed: file descriptor \(ends[0]) is not a terminal")
        }
    }

    @Test func aPageThatCannotOpenIsAPageFailure() async throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        do {
            _ = try await PageEditor.edit(url: "http://127.0.0.1:9/", on: .remote(URL(string: "http://127.0.0.1:9/")!, browserName: nil),
                                          library: folder.library, scriptTimeout: 5)
            Issue.record("the editor ran without a browser")
        } catch {
            guard case .page(.engine(.remoteUnavailable)) = error else {
                Issue.record("expected the endpoint to be unavailable, got \(error)")
                return
            }
        }
    }
}

/// Whether a callback ran.
final class OpenedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A script library in a new temporary folder.
struct TemporaryLibrary {
    let directory: URL
    let library: ScriptLibrary

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-session-\(UUID().uuidString)", isDirectory: true)
        library = try ScriptLibrary(directory: directory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
