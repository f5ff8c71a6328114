import Testing
@testable import UserScripts

struct UserScriptParsingTests {
    @Test func readsTheKnownKeys() throws {
        let script = UserScript(text: """
            // ==UserScript==
            // @name         Tidy tables
            // @name:fr      Tableaux rangés
            // @namespace    https://example.com/scripts
            // @description  Makes tables readable
            // @version      2.1
            // @match        *://example.com/*
            // @match        https://*.example.org/reports/*
            // @exclude-match https://example.com/admin/*
            // @include      *://example.net/*
            // @exclude      *://example.net/private/*
            // @run-at       document-end
            // @grant        none
            // @noframes
            // ==/UserScript==
            document.title;
            """)
        #expect(script.name == "Tidy tables")
        #expect(script.localizedNames == ["fr": "Tableaux rangés"])
        #expect(script.namespace == "https://example.com/scripts")
        #expect(script.scriptDescription == "Makes tables readable")
        #expect(script.version == "2.1")
        #expect(script.values(for: "match") == ["*://example.com/*", "https://*.example.org/reports/*"])
        #expect(script.siteRules.map(\.kind) == [.match, .match, .excludeMatch, .include, .exclude])
        #expect(script.siteRules.map(\.line) == [7, 8, 9, 10, 11])
        #expect(script.runAt == .documentEnd)
        #expect(script.interpretation.runMode == .automatic(.documentEnd))
        #expect(script.grants == ["none"])
        #expect(script.noFrames)
        #expect(script.body == "document.title;")
        #expect(script.interpretation.notes.isEmpty)
        #expect(script.runsAutomatically)
    }

    @Test func aFileWithoutABlockIsAScriptNamedAfterItsFile() throws {
        let script = UserScript(text: "alert(1)\n", fallbackName: "quick fix")
        #expect(!script.hasMetadataBlock)
        #expect(script.name == "quick fix")
        #expect(script.body == "alert(1)\n")
        #expect(script.siteRules.isEmpty)
        #expect(!script.runsAutomatically)
    }

    @Test func aBlockWithoutNameUsesTheFallback() throws {
        let script = UserScript(text: "// ==UserScript==\n// @version 1\n// ==/UserScript==\n", fallbackName: "from-file")
        #expect(script.name == "from-file")
    }

    @Test func withoutRunAtAScriptWithRulesRunsAtDocumentIdle() {
        let script = UserScript(text: "// ==UserScript==\n// @match *://example.com/*\n// ==/UserScript==\n")
        #expect(script.runAt == nil)
        #expect(script.interpretation.runMode == .automatic(.documentIdle))
        #expect(script.interpretation.runAtLine == nil)
        #expect(script.runsAutomatically)
    }

    @Test(arguments: [
        ("// @name No rules", RunMode.onDemand(.noSiteRules)),
        ("// @match *://a.example/*\n// @run-at context-menu", .onDemand(.contextMenu(line: 3))),
        ("// @include *.google.*\n// @match http://bar", .onDemand(.everySiteRuleSetAside)),
        ("// @match *://a.example/*\n// @exclude /(?<=a)b/", .onDemand(.unreadableExclusion(line: 3))),
        ("// @match *://a.example/*\n// @run-at document-body", .automatic(.documentBody)),
        ("// @match *://a.example/*\n// @run-at document-start", .automatic(.documentStart)),
    ])
    func theRunModeFollowsTheManagers(_ lines: String, _ expected: RunMode) {
        let script = UserScript(text: "// ==UserScript==\n\(lines)\n// ==/UserScript==\n")
        #expect(script.interpretation.runMode == expected)
    }

    @Test func badLinesAreSetAsideAndTheRestStands() {
        let script = UserScript(text: """
            // ==UserScript==
            // @name    Old
            // @match   http://bar
            // @include *.google.*
            // @match   *://example.com/*
            // @run-at  document-idel
            // @name    Second
            // @grant   GM_xmlhttpRequest
            // ==/UserScript==
            """)
        let notes = script.interpretation.notes
        #expect(notes.map(\.line) == [3, 4, 6, 7])
        #expect(notes.allSatisfy { $0.isSetAside })
        #expect(notes.filter(\.refusesSave).map(\.line) == [3, 4, 6])
        #expect(notes[0].description.contains("Did you mean `http://bar/*`?"))
        #expect(notes[3].description.contains("first on line 2"))
        #expect(script.name == "Old")
        #expect(script.grants == ["GM_xmlhttpRequest"])
        #expect(script.interpretation.runMode == .automatic(.documentIdle))
        #expect(script.siteRules.filter { $0.error == nil }.map(\.text) == ["*://example.com/*"])
    }

    @Test func keepsUnknownAndLocalisedKeys() throws {
        let script = UserScript(text: "// ==UserScript==\n// @name A\n// @description:de Etwas\n// @antifeature ads\n// @homepageURL https://x.example\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name", "description:de", "antifeature", "homepageURL"])
        #expect(script.entries[1].baseKey == "description")
        #expect(script.entries[1].locale == "de")
        #expect(script.value(for: "antifeature") == "ads")
    }

    @Test func acceptsIndentationCRLFAndAByteOrderMark() throws {
        let script = UserScript(text: "\u{FEFF}// ==UserScript==\r\n  //   @name   Spaced   \r\n\t// @match *://a.example/*\r\n// ==/UserScript==\r\nbody\r\n")
        #expect(script.name == "Spaced")
        #expect(script.values(for: "match") == ["*://a.example/*"])
        #expect(script.body == "body\r\n")
    }

    @Test func codeBeforeTheBlockIsKeptAndTheBodyIsWhatFollowsIt() throws {
        let text = "/* MIT licence */\n// ==UserScript==\n// @name A\n// ==/UserScript==\n\nrun();\n"
        let script = UserScript(text: text)
        #expect(script.body == "\nrun();\n")
        #expect(script.text == text)
    }

    struct Lenient: Sendable, CustomTestStringConvertible {
        let text: String
        let note: ScriptNote
        let entries: [String]
        var testDescription: String { note.description }
    }

    /// What the managers ignore, PageScript notes; none of it stops the script from being read.
    @Test(arguments: [
        Lenient(text: "// ==UserScript==\n// @name A\n// @match *://a.example/*\n", note: ScriptNote(kind: .blockNotClosed, line: 1), entries: []),
        Lenient(text: "x()\n\n// ==UserScript==\n// @name A\nbody()\n// ==/UserScript==\n", note: ScriptNote(kind: .comment("body()"), line: 5), entries: ["name"]),
        Lenient(text: "// ==UserScript==\n// name   Forgotten at\n// ==/UserScript==\n", note: ScriptNote(kind: .keyWithoutAt("name"), line: 2), entries: []),
        Lenient(text: "// ==UserScript==\n// match *://a.example/*\n// ==/UserScript==\n", note: ScriptNote(kind: .keyWithoutAt("match"), line: 2), entries: []),
        Lenient(text: "// ==UserScript==\n// @name A\n// @match *://*/*\n// @name B\n// ==/UserScript==\n",
                note: ScriptNote(kind: .duplicated(key: "name", firstLine: 2), line: 4), entries: ["name", "match", "name"]),
        Lenient(text: "// ==UserScript==\n// @name:fr A\n// @name:fr B\n// ==/UserScript==\n",
                note: ScriptNote(kind: .duplicated(key: "name:fr", firstLine: 2), line: 3), entries: ["name:fr", "name:fr"]),
        Lenient(text: "// ==/UserScript==\n// ==UserScript==\n// @name A\n// ==/UserScript==\n", note: ScriptNote(kind: .strayMarker("// ==/UserScript=="), line: 1), entries: ["name"]),
        Lenient(text: "// ==UserScript==\n// ==UserScript==\n// ==/UserScript==\n", note: ScriptNote(kind: .strayMarker("// ==UserScript=="), line: 2), entries: []),
        Lenient(text: "// ==UserScript==\n// @ name\n// ==/UserScript==\n", note: ScriptNote(kind: .emptyKey, line: 2), entries: []),
        Lenient(text: "// ==UserScript==\n// @name\n// ==/UserScript==\n", note: ScriptNote(kind: .emptyName, line: 2), entries: ["name"]),
        Lenient(text: "// ==UserScript==\nvar x = 1;\n// ==/UserScript==\n", note: ScriptNote(kind: .comment("var x = 1;"), line: 2), entries: []),
        Lenient(text: "// ==UserScript==\n// @require\n// ==/UserScript==\n", note: ScriptNote(kind: .requireWithoutURL, line: 2), entries: ["require"]),
        Lenient(text: "// ==UserScript==\n// @resource logo\n// ==/UserScript==\n", note: ScriptNote(kind: .resourceWithoutURL("logo"), line: 2), entries: ["resource"]),
    ])
    func oddBlocksAreReadLikeTheManagersReadThem(_ lenient: Lenient) {
        let script = UserScript(text: lenient.text, fallbackName: "from file")
        #expect(script.interpretation.notes.contains(lenient.note), "\(script.interpretation.notes)")
        #expect(script.entries.map(\.key) == lenient.entries)
        #expect(script.text == lenient.text)
    }

    @Test func anUnclosedBlockReadsNoRulesAndRunsOnDemand() {
        let script = UserScript(text: "// ==UserScript==\n// @name A\n// @match *://a.example/*\nalert(1)\n", fallbackName: "from file")
        #expect(script.name == "from file")
        #expect(!script.hasMetadataBlock)
        #expect(script.interpretation.runMode == .onDemand(.blockNotClosed(line: 1)))
    }

    @Test func theFirstOfADuplicatedKeyIsUsed() {
        let script = UserScript(text: "// ==UserScript==\n// @name First\n// @name Second\n// @run-at document-start\n// @run-at document-end\n// @match *://a.example/*\n// ==/UserScript==\n")
        #expect(script.name == "First")
        #expect(script.interpretation.runMode == .automatic(.documentStart))
    }

    @Test(arguments: [
        "// include the header only on article pages",
        "// match the old layout too",
        "// name of the game: speed",
        "// version history is in CHANGES.md",
        "// grant access only where needed",
    ])
    func proseStartingWithAKeyWordIsAComment(_ line: String) throws {
        let script = UserScript(text: "// ==UserScript==\n// @name A\n\(line)\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name"])
    }

    @Test(arguments: ["// version 1.2", "// grant none", "// run-at document-end", "// include *://a.example/*", "// description  Aligned like a key"])
    func aKeyWithoutItsAtIsNotedAndIgnored(_ line: String) {
        let script = UserScript(text: "// ==UserScript==\n\(line)\n// ==/UserScript==\n")
        #expect(script.entries.isEmpty)
        #expect(script.interpretation.notes.count == 1)
        #expect(script.interpretation.notes.first?.description.contains("without its `@`") == true)
    }

    @Test func commentsAndBlankLinesInsideTheBlockAreFine() throws {
        let script = UserScript(text: "// ==UserScript==\n// @name A\n//\n// This script tidies tables.\n\n// @version 1\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name", "version"])
        #expect(script.interpretation.notes == [ScriptNote(kind: .comment("// This script tidies tables."), line: 4)])
    }
}
