import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// Messages say what the user can do where they read them: whole sentences, the commands that
/// exist in the command they ran, and what a file is when it is not what was expected.
@Suite(.serialized)
struct MessageWordingTests {
    /// What a process wrote, as it comes.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var collected = ""

        func add(_ data: Data) {
            let chunk = String(decoding: data, as: UTF8.self)
            lock.withLock { collected += chunk }
        }

        var text: String { lock.withLock { collected } }
    }

    /// A zip archive that holds one file, `notes.txt` (stored, not compressed).
    static let zipOfText: [UInt8] = {
        let name = Array("notes.txt".utf8)
        let data = Array("hello\n".utf8)
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        let common = le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(name.count)
        let local = [0x50, 0x4B, 0x03, 0x04] + common + le16(0) + name + data
        let central = [0x50, 0x4B, 0x01, 0x02] + le16(20) + common + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + name
        let end = [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count)) + le32(UInt32(local.count)) + le16(0)
        return local + central + end
    }()

    @Test func aZipWhereAScriptIsExpectedIsNamedAsOne() async throws {
        let folder = try TemporaryDirectory("pagescript-wording")
        let zip = try folder.write(Self.zipOfText, to: "backup.zip").path
        try folder.write(Self.zipOfText, to: "scripts/backup.user.js")

        let run = try await PageScriptBinary.outcome(of: ["run", "about:blank", "-f", zip, "--library", folder.path("library")])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("is a zip archive, not a script"), "\(run.standardError)")
        #expect(run.standardError.contains("scripts import") && !run.standardError.contains("UTF-8"), "\(run.standardError)")

        let made = try await PageScriptBinary.outcome(of: ["scripts", "new", "-f", zip, "--library", folder.path("library")])
        #expect(made.standardError.contains("is a zip archive, not a script") && !made.standardError.contains("UTF-8"), "\(made.standardError)")

        let fromFolder = try await PageScriptBinary.outcome(of: ["scripts", "import", folder.path("scripts"),
                                                                 "--no-fetch", "--library", folder.path("library")])
        #expect(fromFolder.status == 1)
        #expect(fromFolder.standardOutput.contains("backup.user.js: is a zip archive, not a script"), "\(fromFolder.standardOutput)")
        #expect(!fromFolder.standardOutput.contains("UTF-8"), "\(fromFolder.standardOutput)")

        let notABackup = try await PageScriptBinary.outcome(of: ["scripts", "import", zip, "--no-fetch", "--library", folder.path("library")])
        let said = notABackup.standardOutput + notABackup.standardError
        #expect(said.contains("a zip archive with no userscript") && said.contains("Tampermonkey or Violentmonkey backup"), "\(said)")
        #expect(!said.contains("UTF-8"), "\(said)")

        let server = try LoopbackServer(responses: ["/backup.zip": LoopbackResponse(status: 200, headers: [("Content-Type", "application/zip")], body: Self.zipOfText)])
        defer { server.stop() }
        let downloaded = try await PageScriptBinary.outcome(of: ["scripts", "import", server.url("/backup.zip"), "--no-fetch", "--library", folder.path("library")])
        #expect(downloaded.status == 1)
        #expect(downloaded.standardError.contains("is a zip archive, not a script") && !downloaded.standardError.contains("UTF-8"),
                "\(downloaded.standardError)")
    }

    /// On an engine that cannot run a document-start script first, the run says so in a whole
    /// sentence.
    @Test func aDocumentStartScriptRunLateSaysSoWhole() async throws {
        let folder = try TemporaryDirectory("pagescript-wording")
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Late</title><p>x</p>"])
        defer { server.stop() }
        let script = "// ==UserScript==\n// @name Early\n// @match \(server.url("/"))\n// @run-at document-start\n// @grant GM_setValue\n// ==/UserScript==\n1\n"
        let made = try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", script, "--library", folder.path("library")])
        #expect(made.status == 0, "\(made.standardError)")
        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/"), "--engine", "webkit", "--library", folder.path("library")])
        #expect(run.status == 0, "\(run.standardError)")
        let line = run.standardError.split(separator: "\n").first { $0.hasPrefix("ran at document-end: ") }
        #expect(line == "ran at document-end: this engine cannot run document-start scripts before the page's own scripts, so it ran once the page had loaded",
                "\(run.standardError)")
    }

    /// Browse without a terminal names its own way to run a menu command: `--menu` is `run`'s.
    @Test func browseWithoutATerminalSaysHowItRunsMenuCommands() throws {
        let folder = try TemporaryDirectory("pagescript-wording")
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Menu</title><p>x</p>"])
        defer { server.stop() }
        let script = "// ==UserScript==\n// @name Menu\n// @match \(server.url("/"))\n// @grant GM_registerMenuCommand\n// ==/UserScript==\n"
            + "GM_registerMenuCommand('Tidy up', function () {}); 1\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", folder.path("library")]).status == 0)
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PageScriptBinary.path)
        process.arguments = ["browse", server.url("/"), "--engine", "chromium", "--library", folder.path("library")]
        process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display.name]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = Pipe()
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { handle in collected.add(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !collected.text.contains("\tMenu\t") { Thread.sleep(forTimeInterval: 0.1) }
        process.terminate()
        process.waitUntilExit()
        let said = collected.text
        #expect(said.contains("menu command: Tidy up (browse at a terminal runs it with a number key)"), "\(said)")
        #expect(!said.contains("--menu"), "\(said)")
    }
}
