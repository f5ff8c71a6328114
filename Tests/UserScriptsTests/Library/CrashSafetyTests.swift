import Foundation
import TestSupport
import Testing
@testable import UserScripts
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real processes, really killed. Each exit test runs its closure in a child process (the test
/// binary started again by swift-testing), which saves through the library and is stopped with
/// SIGKILL; the parent then checks what is on disk.
struct CrashSafetyTests {
    /// Large enough that writing it takes many chunks, so a kill can land in the middle.
    static let size = 3 * FileSystem.chunkSize + 123

    static func script(body: Character, version: Int) -> String {
        "// ==UserScript==\n// @name         Big\n// @version      \(version)\n// ==/UserScript==\n" + String(repeating: body, count: size) + "\n"
    }

    /// Makes a library holding one script with the old content; returns its folder, the script's
    /// ID and file.
    static func prepare(_ folder: TemporaryDirectory) throws -> (library: String, id: String, file: String) {
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: script(body: "o", version: 1))
        return (folder.path, stored.id.rawValue, stored.file.path(percentEncoded: false))
    }

    /// Which stage the writer is killed at: 0 halfway through writing the temporary file, 1 after
    /// it is flushed but before the rename, 2 after the rename, 3 after the folder is flushed.
    @Test(arguments: 0...3)
    func aWriterKilledAtAnyStageLeavesTheOldFileOrTheNewOne(stage: Int) async throws {
        let folder = try TemporaryDirectory("crash")
        let prepared = try Self.prepare(folder)
        let libraryPath: String = prepared.library
        let id: String = prepared.id
        let old = Self.script(body: "o", version: 1)
        let new = Self.script(body: "n", version: 2)

        await #expect(processExitsWith: .signal(SIGKILL)) { [libraryPath = libraryPath as String, id = id as String, stage] in
            let library = try ScriptLibrary(directory: URL(fileURLWithPath: libraryPath))
            library.writeObserver = { reached in
                let stop = switch reached {
                case .wroteBytes(let count): stage == 0 && count > 0 && count < CrashSafetyTests.size
                case .synced: stage == 1
                case .renamed: stage == 2
                case .directorySynced: stage == 3
                }
                if stop { kill(getpid(), SIGKILL) }
            }
            var stored = try library.script(id: ScriptID(id))
            stored.script.setText(CrashSafetyTests.script(body: "n", version: 2))
            _ = try library.save(stored)
        }

        let onDisk = try String(contentsOfFile: prepared.file, encoding: .utf8)
        #expect(onDisk == (stage < 2 ? old : new))
        // The library reads it as usual; a leftover temporary file is hidden and ignored.
        let library = try ScriptLibrary(directory: folder.url)
        #expect(try library.scripts().map(\.script.text) == [onDisk])
        #expect(try library.problems().isEmpty)
        #expect(try folder.entries().filter { !$0.hasPrefix(".") }.count == 1)
    }

    /// The same, with the kill coming from another thread at an arbitrary moment while the
    /// process saves in a loop: whatever instant it lands on, the file is one whole version.
    @Test(arguments: [2, 5, 11, 17, 29, 41, 59, 83])
    func aWriterKilledAtAnArbitraryMomentLeavesAWholeVersion(milliseconds: Int) async throws {
        let folder = try TemporaryDirectory("crash")
        let prepared = try Self.prepare(folder)
        let libraryPath: String = prepared.library
        let id: String = prepared.id

        await #expect(processExitsWith: .signal(SIGKILL)) { [libraryPath = libraryPath as String, id = id as String, milliseconds] in
            Thread.detachNewThread {
                usleep(useconds_t(milliseconds * 1000))
                kill(getpid(), SIGKILL)
            }
            let library = try ScriptLibrary(directory: URL(fileURLWithPath: libraryPath))
            var stored = try library.script(id: ScriptID(id))
            var version = 2
            while true {
                stored.script.setText(CrashSafetyTests.script(body: version.isMultiple(of: 2) ? "n" : "m", version: version))
                stored = try library.save(stored)
                version += 1
            }
        }

        let onDisk = try String(contentsOfFile: prepared.file, encoding: .utf8)
        let script = UserScript(text: onDisk)
        let version = try #require(script.version.flatMap { Int($0) })
        let body: Character = version == 1 ? "o" : (version.isMultiple(of: 2) ? "n" : "m")
        #expect(onDisk == Self.script(body: body, version: version))
    }

    /// Two processes save different scripts, create scripts and flip switches at the same time;
    /// afterwards every save, every new file and every switch is there.
    @Test func twoProcessesSavingDifferentScriptsAtOnceLoseNothing() async throws {
        let folder = try TemporaryDirectory("concurrent")
        let library = try ScriptLibrary(directory: folder.url)
        let first = try library.create(text: "// ==UserScript==\n// @name First\n// ==/UserScript==\n0\n")
        let second = try library.create(text: "// ==UserScript==\n// @name Second\n// ==/UserScript==\n0\n")
        let rounds = 40

        async let one: Void = Self.runWriter(library: folder.path, id: first.id.rawValue, tag: "first", rounds: rounds)
        async let two: Void = Self.runWriter(library: folder.path, id: second.id.rawValue, tag: "second", rounds: rounds)
        _ = await (one, two)

        let after = try ScriptLibrary(directory: folder.url)
        #expect(try after.problems().isEmpty)
        #expect(try after.script(id: first.id).script.body == "\(rounds - 1)\n")
        #expect(try after.script(id: second.id).script.body == "\(rounds - 1)\n")
        let created = try after.scripts().filter { $0.name.hasPrefix("made by ") }
        #expect(created.filter { $0.name == "made by first" }.count == rounds / 4)
        #expect(created.filter { $0.name == "made by second" }.count == rounds / 4)
        // Each process switched its script off on one site per round: all of them were kept.
        #expect(try after.script(id: first.id).disabledSites.count == rounds)
        #expect(try after.script(id: second.id).disabledSites.count == rounds)
    }

    private static func runWriter(library: String, id: String, tag: String, rounds: Int) async {
        await #expect(processExitsWith: .success) { [library, id, tag, rounds] in
            let scripts = try ScriptLibrary(directory: URL(fileURLWithPath: library))
            var stored = try scripts.script(id: ScriptID(id))
            for round in 0..<rounds {
                stored.script.setBody("\(round)\n")
                stored = try scripts.save(stored)
                try scripts.setDisabled(true, id: stored.id, on: Site("\(tag)-\(round).example"))
                stored = try scripts.script(id: stored.id)
                if round.isMultiple(of: 4) {
                    _ = try scripts.create(text: "// ==UserScript==\n// @name made by \(tag)\n// ==/UserScript==\n\(round)\n")
                }
            }
        }
    }
}
