import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `GM_download` from PageScript's side, against real HTTP servers on loopback and a real folder:
/// the file on disk, each option, and each error the script's `onerror` gets.
struct GMDownloadTests {
    static let quick = GMRequestPerformer.Configuration(defaultTimeout: 120, connectTimeout: 60)

    func withServer(_ route: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse,
                    _ body: (GMRequestPerformer, LoopbackServer, DownloadFolder, TemporaryDirectory) async throws -> Void) async throws {
        let server = try LoopbackServer(route: route)
        let temporary = try TemporaryDirectory("gm-download")
        defer { server.stop() }
        let performer = GMRequestPerformer(configuration: Self.quick)
        do {
            try await body(performer, server, DownloadFolder(directory: temporary.url), temporary)
        } catch {
            await performer.shutdown()
            throw error
        }
        await performer.shutdown()
    }

    static func serve(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/file.bin": .text("bytes for \(request.header("x-token") ?? "nobody")", type: "application/octet-stream")
        case "/named": .text("named", headers: [("Content-Disposition", "attachment; filename=\"../from server.txt\"")])
        case "/missing": .text("no such file", status: 404)
        default: .text("page")
        }
    }

    @Test func aFileIsSavedWithTheScriptsHeadersAndReported() async throws {
        try await withServer(Self.serve) { performer, server, folder, temporary in
            let download = GMDownload(url: "/file.bin", name: "sub/../saved.bin", headers: [GMHeaderField(name: "X-Token", value: "t0k")],
                                      saveAs: true, conflictAction: .prompt)
            let record = await performer.download(download, policy: ConnectPolicy(values: []), pageURL: try PageURL(server.url("/")), into: folder)
            #expect(record.path == temporary.path("sub/saved.bin"))
            #expect(record.bytes == "bytes for t0k".utf8.count)
            #expect(try temporary.read("sub/saved.bin") == "bytes for t0k")
            #expect(record.callback == "onload")
            #expect(record.pageJSON["name"] == "sub/saved.bin")
            #expect(record.notes.contains { $0.hasPrefix("saveAs ignored") })
            #expect(record.notes.contains { $0.contains("\"prompt\"") })
            #expect(record.notes.contains { $0.contains("made safe") })
            #expect(record.json["path"] == .string(temporary.path("sub/saved.bin")))
        }
    }

    @Test func theServersNameIsUsedAndATakenOneUniquified() async throws {
        try await withServer(Self.serve) { performer, server, folder, temporary in
            try temporary.write("mine", to: "from server.txt")
            let record = await performer.download(GMDownload(url: server.url("/named")), policy: ConnectPolicy(values: ["127.0.0.1"]), pageURL: nil,
                                                  into: folder)
            #expect(record.relativePath == "from server (1).txt")
            #expect(try temporary.read("from server.txt") == "mine")
            #expect(try temporary.read("from server (1).txt") == "named")
        }
    }

    /// (URL on the server, policy, the error the script gets)
    @Test func failuresSaveNothingAndNameTheirError() async throws {
        try await withServer(Self.serve) { performer, server, folder, temporary in
            let page = try PageURL(server.url("/"))
            let refused = await performer.download(GMDownload(url: "http://127.0.0.2:\(server.port)/file.bin"), policy: ConnectPolicy(values: []),
                                                   pageURL: page, into: folder)
            #expect(refused.error == .notPermitted)
            #expect(refused.message?.contains("@connect 127.0.0.2") == true)
            let missing = await performer.download(GMDownload(url: "/missing"), policy: ConnectPolicy(values: []), pageURL: page, into: folder)
            #expect(missing.error == .notSucceeded)
            #expect(missing.message?.contains("HTTP 404") == true)
            let local = await performer.download(GMDownload(url: "file:///etc/passwd"), policy: ConnectPolicy(values: ["*"]), pageURL: page, into: folder)
            #expect(local.error == .notSupported)
            let off = await performer.download(GMDownload(url: "/file.bin"), policy: ConnectPolicy(values: []), pageURL: page, into: nil)
            #expect(off.error == .notEnabled)
            #expect(off.pageJSON == ["callback": "onerror", "error": "not_enabled", "details": .string(off.message ?? "")])
            #expect(try temporary.entries().isEmpty)
            #expect(server.requests(for: "/missing") == 1)
        }
    }

    @Test func aDownloadThatTakesTooLongTimesOut() async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let temporary = try TemporaryDirectory("gm-download")
        let record = await GMRequestPerformer.withPerformer(Self.quick) { performer in
            await performer.download(GMDownload(url: "http://127.0.0.1:\(silent.port)/slow", timeout: 0.5), policy: ConnectPolicy(values: ["127.0.0.1"]),
                                     pageURL: nil, into: DownloadFolder(directory: temporary.url))
        }
        #expect(record.timedOut)
        #expect(record.callback == "ontimeout")
        #expect(record.error == .notSucceeded)
        #expect(try temporary.entries().isEmpty)
    }

    @Test func detailsAreReadAsThePageSendsThem() throws {
        let download = try GMDownload(json: [
            "url": "https://example.com/a", "name": "a.txt", "headers": ["Referer": "https://example.com/"], "saveAs": true,
            "conflictAction": "Overwrite", "timeout": 2500,
        ])
        #expect(download.conflictAction == .overwrite)
        #expect(download.timeout == 2.5)
        #expect(download.headers == [GMHeaderField(name: "Referer", value: "https://example.com/")])
        #expect(download.saveAs)
        let odd = try GMDownload(json: ["url": "https://example.com/a", "conflictAction": "merge"])
        #expect(odd.conflictAction == .uniquify)
        #expect(odd.unknownConflictAction == "merge")
        #expect(throws: GMRequestFailure.self) { try GMDownload(json: ["url": "x", "headers": ["Bad\nName": "v"]]) }
    }
}
