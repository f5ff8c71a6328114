import Foundation
import Testing
@testable import Engines

/// Where an engine's programs are found, on real files: `PATH` with the names a program may also
/// have, and the version a program says of itself.
struct EngineProgramLocatorTests {
    /// A folder holding executable files called `names`, removed afterwards.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-locator-\(UUID().uuidString)").path

        init(executables names: [String]) throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for name in names {
                let file = path + "/" + name
                try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: file))
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func firefoxMayBeCalledByItsOwnName() throws {
        let folder = try Folder(executables: ["firefox", "geckodriver"])
        let located = Engine.firefox.locatePrograms(path: folder.path)
        #expect(located.missing.isEmpty)
        #expect(located.found["firefox-esr"] == folder.path + "/firefox")
        #expect(located.found["geckodriver"] == folder.path + "/geckodriver")
    }

    @Test func theESRIsPreferredAndAMissingDriverIsNamed() throws {
        let folder = try Folder(executables: ["firefox", "firefox-esr"])
        let located = Engine.firefox.locatePrograms(path: folder.path)
        #expect(located.found["firefox-esr"] == folder.path + "/firefox-esr")
        // A PATH given outright is the whole search: PageScript's own folder is not looked in.
        #expect(located.missing == ["geckodriver"])
        #expect(EngineInventory.inspect(.firefox, path: folder.path).lines.last?.contains("install-engines.sh") == true)
    }

    @Test(arguments: [
        ("Mozilla Firefox 153.8.0esr", "153.8.0esr"),
        ("geckodriver 0.33.0 (a80e5fd61076 2023-04-02 18:31 +0000)", "0.33.0"),
        ("Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)", "156.0.8078.79"),
        ("version 1.2.3-beta", nil),
    ] as [(String, String?)])
    func versionsAreReadAsProgramsSayThem(output: String, version: String?) {
        #expect(EngineInventory.versionNumber(in: output) == version)
    }
}
