import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

struct ScriptValueStoreTests {
    static let script = "// ==UserScript==\n// @name Counter\n// @match *://example.com/*\n// ==/UserScript==\nGM_setValue('n', 1)\n"

    @Test func aScriptThatNeverStoredAnythingHasNoValues() throws {
        let folder = try TemporaryDirectory()
        let store = ScriptValueStore(libraryDirectory: folder.url)
        let values = try store.values(of: "k3m9x2ab")
        #expect(values.isEmpty)
        #expect(values.revision == 0)
        #expect(values.object == .object([]))
        // Reading creates nothing.
        #expect(try folder.entries().isEmpty)
    }

    @Test func changesAreAppliedInOrderAndKeysKeepTheirFirstPosition() throws {
        let folder = try TemporaryDirectory()
        let store = ScriptValueStore(libraryDirectory: folder.url)
        let id: ScriptID = "k3m9x2ab"
        try store.apply([.set(key: "b", value: 1), .set(key: "a", value: "x"), .set(key: "c", value: true)], to: id)
        let after = try store.apply([.set(key: "b", value: 2), .delete(key: "a"), .set(key: "a", value: .null)], to: id)
        #expect(after.keys == ["b", "c", "a"])
        #expect(after["b"] == 2)
        #expect(after["a"] == .null)
        #expect(after.revision == 2)
        // A new store (a later run, a restart) reads the same.
        #expect(try ScriptValueStore(libraryDirectory: folder.url).values(of: id) == after)
    }

    /// What `GM_setValue` accepts: every JSON type, nested, with text that needs escaping.
    @Test(arguments: [
        JSONValue.string("plain"),
        .string("line\nbreak \"quoted\" \\ tab\t \u{0}\u{1b}[31m é 中文 🎉 \u{2028}"),
        .integer(-42),
        .integer(Int64.max),
        .number(3.14159),
        .number(-1e-7),
        .bool(false),
        .null,
        .array([1, "two", [3], ["four": 4]]),
        ["nested": ["deeper": ["list": [true, false, .null]]], "": "empty key"],
    ])
    func everyJSONValueSurvivesAWriteAndARead(value: JSONValue) throws {
        let folder = try TemporaryDirectory()
        let id: ScriptID = "k3m9x2ab"
        try ScriptValueStore(libraryDirectory: folder.url).apply([.set(key: "v", value: value)], to: id)
        let read = try ScriptValueStore(libraryDirectory: folder.url).values(of: id)
        #expect(read["v"] == value)
        #expect(read["v"]?.serialized == value.serialized)
    }

    @Test func valuesAreKeptByIDSoARenameKeepsThem() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.create(text: Self.script)
        let store = ScriptValueStore(libraryDirectory: folder.url)
        try store.apply([.set(key: "count", value: 7)], to: stored.id)
        try stored.script.setValue("Renamed counter", forKey: "name")
        stored = try library.save(stored)
        let renamed = try library.find("Renamed counter")
        #expect(try store.values(of: renamed.id)["count"] == 7)
        // The library still sees exactly one script: the values folder is not mistaken for one.
        #expect(try library.scripts().count == 1)
        #expect(try library.problems().isEmpty)
    }

    @Test func removeAllClearsEveryKeyAndKeepsTheRevisionGrowing() throws {
        let folder = try TemporaryDirectory()
        let store = ScriptValueStore(libraryDirectory: folder.url)
        let id: ScriptID = "k3m9x2ab"
        try store.apply([.set(key: "a", value: 1), .set(key: "b", value: 2)], to: id)
        let cleared = try store.removeAll(of: id)
        #expect(cleared.isEmpty)
        #expect(cleared.revision == 2)
        #expect(try store.scriptIDs() == [id])
    }

    @Test func idsThatAreNotPlainNamesBecomeSafeFileNames() throws {
        let folder = try TemporaryDirectory()
        let store = ScriptValueStore(libraryDirectory: folder.url)
        let odd = ScriptID("../up/.hidden ünïcode")
        try store.apply([.set(key: "k", value: 1)], to: odd)
        #expect(try store.values(of: odd)["k"] == 1)
        #expect(try store.scriptIDs() == [odd])
        let names = try folder.entries(".pagescript-values")
        #expect(names.count == 1)
        #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") })
    }

    @Test func changesSinceASnapshotAreWhatAnotherRunChanged() throws {
        let old = ScriptValues(scriptID: "a", revision: 3, pairs: [("keep", 1), ("change", 1), ("drop", 1)])
        let new = ScriptValues(scriptID: "a", revision: 5, pairs: [("keep", 1), ("change", 2), ("add", "x")])
        #expect(new.changes(since: old) == [.delete(key: "drop"), .set(key: "change", value: 2), .set(key: "add", value: "x")])
        #expect(old.applying(new.changes(since: old)).object == new.object)
    }

    @Test func theWireFormOfAChangeIsReadStrictly() throws {
        let changes = try ValueChange.list(fromJSON: [["key": "a", "value": ["x": 1]], ["key": "b", "deleted": true], ["key": "c", "value": .null]])
        #expect(changes == [.set(key: "a", value: ["x": 1]), .delete(key: "b"), .set(key: "c", value: .null)])
        #expect(changes.map(\.json) == [["key": "a", "value": ["x": 1]], ["key": "b", "deleted": true], ["key": "c", "value": .null]])
        #expect(throws: ValueStoreError.self) { try ValueChange(json: ["value": 1]) }
        #expect(throws: ValueStoreError.self) { try ValueChange(json: ["key": "a"]) }
        #expect(throws: ValueStoreError.self) { try ValueChange.list(fromJSON: ["key": "a", "value": 1]) }
    }

    @Test func aDamagedValuesFileIsReportedAndNeverOverwritten() throws {
        let folder = try TemporaryDirectory()
        let id: ScriptID = "k3m9x2ab"
        let damaged = "{\"format\":1,\"values\":{\"a\":"
        try folder.write(damaged, to: ".pagescript-values/k3m9x2ab.json")
        let store = ScriptValueStore(libraryDirectory: folder.url)
        #expect(throws: ValueStoreError.self) { try store.values(of: id) }
        let error = #expect(throws: ValueStoreError.self) { try store.apply([.set(key: "b", value: 1)], to: id) }
        #expect(error?.description.contains("cannot be read") == true)
        #expect(try folder.read(".pagescript-values/k3m9x2ab.json") == damaged)
    }

    @Test func aFileFromANewerPageScriptIsRefused() throws {
        let folder = try TemporaryDirectory()
        try folder.write("{\"format\":2,\"revision\":1,\"values\":{}}", to: ".pagescript-values/k3m9x2ab.json")
        let error = #expect(throws: ValueStoreError.self) { try ScriptValueStore(libraryDirectory: folder.url).values(of: "k3m9x2ab") }
        #expect(error?.description.contains("newer PageScript") == true)
    }

    /// Two threads of one process applying at once (each through its own lock file descriptor)
    /// lose nothing either.
    @Test func concurrentAppliesInOneProcessLoseNoKey() async throws {
        let folder = try TemporaryDirectory()
        let id: ScriptID = "k3m9x2ab"
        let url = folder.url
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let store = ScriptValueStore(libraryDirectory: url)
                    for round in 0..<25 {
                        _ = try? store.apply([.set(key: "w\(writer)-\(round)", value: .integer(Int64(round)))], to: id)
                    }
                }
            }
        }
        let values = try ScriptValueStore(libraryDirectory: folder.url).values(of: id)
        #expect(values.count == 100)
        #expect(values.revision == 100)
    }
}
