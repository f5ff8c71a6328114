import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real processes, really killed. Each exit test runs its closure in a child process (the test
/// binary started again by swift-testing) that writes values and is stopped with SIGKILL; the
/// parent then reads what is on disk.
struct ValueCrashSafetyTests {
    /// Large enough that writing it takes several chunks, so a kill can land in the middle.
    static let size = 3 * FileSystem.chunkSize + 123

    static func big(_ letter: Character) -> JSONValue { .string(String(repeating: letter, count: size)) }

    static func prepare() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("values-crash")
        try ScriptValueStore(libraryDirectory: folder.url).apply([.set(key: "big", value: big("o")), .set(key: "small", value: 1)], to: "k3m9x2ab")
        return folder
    }

    /// Which stage the writer is killed at: 0 halfway through the temporary file, 1 after it is
    /// flushed but before the rename, 2 after the rename, 3 after the folder is flushed.
    @Test(arguments: 0...3)
    func aWriterKilledAtAnyStageLeavesTheOldValuesOrTheNew(stage: Int) async throws {
        let folder = try Self.prepare()
        let path: String = folder.path

        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, stage] in
            let store = ScriptValueStore(libraryDirectory: URL(fileURLWithPath: path), writeObserver: { reached in
                let stop = switch reached {
                case .wroteBytes(let count): stage == 0 && count > 0 && count < ValueCrashSafetyTests.size
                case .synced: stage == 1
                case .renamed: stage == 2
                case .directorySynced: stage == 3
                }
                if stop { kill(getpid(), SIGKILL) }
            })
            try store.apply([.set(key: "big", value: ValueCrashSafetyTests.big("n")), .set(key: "small", value: 2)], to: "k3m9x2ab")
        }

        let values = try ScriptValueStore(libraryDirectory: folder.url).values(of: "k3m9x2ab")
        if stage < 2 {
            #expect(values["big"] == Self.big("o"))
            #expect(values["small"] == 1)
        } else {
            #expect(values["big"] == Self.big("n"))
            #expect(values["small"] == 2)
        }
        // The next write removes the dead writer's temporary file and succeeds.
        try ScriptValueStore(libraryDirectory: folder.url).apply([.set(key: "after", value: true)], to: "k3m9x2ab")
        #expect(try folder.entries(".pagescript-values") == ["k3m9x2ab.json"])
    }

    /// The kill comes from another thread at an arbitrary moment while the child writes in a
    /// loop: whatever instant it lands on, the file holds one whole write.
    @Test(arguments: [2, 5, 11, 17, 29, 41, 59, 83])
    func aWriterKilledAtAnArbitraryMomentLeavesOneWholeWrite(milliseconds: Int) async throws {
        let folder = try Self.prepare()
        let path: String = folder.path

        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, milliseconds] in
            Thread.detachNewThread {
                usleep(useconds_t(milliseconds * 1000))
                kill(getpid(), SIGKILL)
            }
            let store = ScriptValueStore(libraryDirectory: URL(fileURLWithPath: path))
            var round: Int64 = 2
            while true {
                let letter: Character = round.isMultiple(of: 2) ? "n" : "m"
                try store.apply([.set(key: "big", value: ValueCrashSafetyTests.big(letter)), .set(key: "small", value: .integer(round))], to: "k3m9x2ab")
                round += 1
            }
        }

        let values = try ScriptValueStore(libraryDirectory: folder.url).values(of: "k3m9x2ab")
        let round = try #require(values["small"]?.intValue)
        let letter: Character = round == 1 ? "o" : (round.isMultiple(of: 2) ? "n" : "m")
        #expect(values["big"] == Self.big(letter))
        #expect(values.revision == round)
    }

    /// Two processes of the same script write at once: each its own keys, and one key both
    /// write. Every own key of both survives (merge per key), and the shared key holds the last
    /// write of one of them (last writer per key wins).
    @Test func twoRunsOfOneScriptInTwoProcessesLoseNoWrite() async throws {
        let folder = try TemporaryDirectory("values-concurrent")
        let rounds = 40
        async let one: Void = Self.runWriter(library: folder.path, tag: "first", rounds: rounds)
        async let two: Void = Self.runWriter(library: folder.path, tag: "second", rounds: rounds)
        _ = await (one, two)

        let values = try ScriptValueStore(libraryDirectory: folder.url).values(of: "k3m9x2ab")
        for tag in ["first", "second"] {
            for round in 0..<rounds {
                #expect(values["\(tag)-\(round)"] == .integer(Int64(round)))
            }
        }
        #expect(values.count == 2 * rounds + 1)
        #expect(values.revision == 2 * rounds)
        #expect(["first-\(rounds - 1)", "second-\(rounds - 1)"].contains(values["shared"]?.stringValue ?? ""))
    }

    private static func runWriter(library: String, tag: String, rounds: Int) async {
        await #expect(processExitsWith: .success) { [library, tag, rounds] in
            let store = ScriptValueStore(libraryDirectory: URL(fileURLWithPath: library))
            for round in 0..<rounds {
                try store.apply([.set(key: "\(tag)-\(round)", value: .integer(Int64(round))), .set(key: "shared", value: .string("\(tag)-\(round)"))], to: "k3m9x2ab")
            }
        }
    }
}
