import Testing
@testable import UserScripts

struct UserScriptParsingTests {
    @Test func readsTheKnownKeys() throws {
        let script = try UserScript(text: """
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
        #expect(script.grants == ["none"])
        #expect(script.unsupportedGrants.isEmpty)
        #expect(script.noFrames)
        #expect(script.body == "document.title;")
        #expect(script.issues.isEmpty)
        #expect(script.runsAutomatically)
    }

    @Test func aFileWithoutABlockIsAScriptNamedAfterItsFile() throws {
        let script = try UserScript(text: "alert(1)\n", fallbackName: "quick fix")
        #expect(!script.hasMetadataBlock)
        #expect(script.name == "quick fix")
        #expect(script.body == "alert(1)\n")
        #expect(script.siteRules.isEmpty)
        #expect(!script.runsAutomatically)
    }

    @Test func aBlockWithoutNameUsesTheFallback() throws {
        let script = try UserScript(text: "// ==UserScript==\n// @version 1\n// ==/UserScript==\n", fallbackName: "from-file")
        #expect(script.name == "from-file")
    }

    @Test func withoutRunAtAScriptRunsOnlyOnDemand() throws {
        let script = try UserScript(text: "// ==UserScript==\n// @match *://example.com/*\n// ==/UserScript==\n")
        #expect(script.runAt == nil)
        #expect(script.hasSitePatterns)
        #expect(!script.runsAutomatically)
    }

    @Test func unsupportedValuesAreIssuesWithLineNumbers() throws {
        let script = try UserScript(text: """
            // ==UserScript==
            // @name    Old
            // @match   http://bar
            // @include *.google.*
            // @run-at  context-menu
            // @grant   GM_xmlhttpRequest
            // @grant   GM_setValue
            // ==/UserScript==
            """)
        let issues = script.issues
        #expect(issues.map(\.line) == [3, 4, 5, 6, 7])
        #expect(issues.filter(\.preventsAutomaticRunning).map(\.line) == [3, 4, 5])
        #expect(script.unsupportedGrants == ["GM_xmlhttpRequest", "GM_setValue"])
        #expect(issues[0].description.contains("Did you mean `http://bar/*`?"))
        #expect(!script.runsAutomatically)
    }

    @Test func keepsUnknownAndLocalisedKeys() throws {
        let script = try UserScript(text: "// ==UserScript==\n// @name A\n// @description:de Etwas\n// @antifeature ads\n// @homepageURL https://x.example\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name", "description:de", "antifeature", "homepageURL"])
        #expect(script.entries[1].baseKey == "description")
        #expect(script.entries[1].locale == "de")
        #expect(script.value(for: "antifeature") == "ads")
    }

    @Test func acceptsIndentationCRLFAndAByteOrderMark() throws {
        let script = try UserScript(text: "\u{FEFF}// ==UserScript==\r\n  //   @name   Spaced   \r\n\t// @match *://a.example/*\r\n// ==/UserScript==\r\nbody\r\n")
        #expect(script.name == "Spaced")
        #expect(script.values(for: "match") == ["*://a.example/*"])
        #expect(script.body == "body\r\n")
    }

    @Test func codeBeforeTheBlockIsKeptAndTheBodyIsWhatFollowsIt() throws {
        let text = "/* MIT licence */\n// ==UserScript==\n// @name A\n// ==/UserScript==\n\nrun();\n"
        let script = try UserScript(text: text)
        #expect(script.body == "\nrun();\n")
        #expect(script.text == text)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let text: String
        let kind: MetadataError.Kind
        let line: Int
        var testDescription: String { "\(kind) on line \(line)" }
    }

    @Test(arguments: [
        Malformed(text: "// ==UserScript==\n// @name A\n", kind: .unterminatedBlock, line: 1),
        Malformed(text: "x()\n\n// ==UserScript==\n// @name A\nbody()\n", kind: .notAComment, line: 5),
        Malformed(text: "// ==UserScript==\n// name   Forgotten at\n// ==/UserScript==\n", kind: .keyWithoutAt("name"), line: 2),
        Malformed(text: "// ==UserScript==\n// match *://a.example/*\n// ==/UserScript==\n", kind: .keyWithoutAt("match"), line: 2),
        Malformed(text: "// ==UserScript==\n// @name A\n// @match *://*/*\n// @name B\n// ==/UserScript==\n", kind: .duplicatedKey("name", firstLine: 2), line: 4),
        Malformed(text: "// ==UserScript==\n// @name:fr A\n// @name:fr B\n// ==/UserScript==\n", kind: .duplicatedKey("name:fr", firstLine: 2), line: 3),
        Malformed(text: "// ==UserScript==\n// @run-at document-end\n// @run-at document-idle\n// ==/UserScript==\n", kind: .duplicatedKey("run-at", firstLine: 2), line: 3),
        Malformed(text: "// ==/UserScript==\n", kind: .closingWithoutOpening, line: 1),
        Malformed(text: "// ==UserScript==\n// ==UserScript==\n// ==/UserScript==\n", kind: .nestedOpening, line: 2),
        Malformed(text: "// ==UserScript==\n// @ name\n// ==/UserScript==\n", kind: .emptyKey, line: 2),
        Malformed(text: "// ==UserScript==\n// @name\n// ==/UserScript==\n", kind: .missingValue("name"), line: 2),
        Malformed(text: "// ==UserScript==\nvar x = 1;\n// ==/UserScript==\n", kind: .notAComment, line: 2),
    ])
    func malformedBlocksGiveASpecificErrorWithTheLine(_ malformed: Malformed) {
        let error = #expect(throws: MetadataError.self) { try UserScript(text: malformed.text) }
        #expect(error?.kind == malformed.kind)
        #expect(error?.line == malformed.line)
        #expect(error?.description.hasPrefix("line \(malformed.line): ") == true)
    }

    @Test(arguments: [
        "// include the header only on article pages",
        "// match the old layout too",
        "// name of the game: speed",
        "// version history is in CHANGES.md",
        "// grant access only where needed",
    ])
    func proseStartingWithAKeyWordIsAComment(_ line: String) throws {
        let script = try UserScript(text: "// ==UserScript==\n// @name A\n\(line)\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name"])
    }

    @Test(arguments: ["// version 1.2", "// grant none", "// run-at document-end", "// include *://a.example/*", "// description  Aligned like a key"])
    func aKeyWithoutItsAtIsCaught(_ line: String) {
        #expect(throws: MetadataError.self) { try UserScript(text: "// ==UserScript==\n\(line)\n// ==/UserScript==\n") }
    }

    @Test func commentsAndBlankLinesInsideTheBlockAreFine() throws {
        let script = try UserScript(text: "// ==UserScript==\n// @name A\n//\n// This script tidies tables.\n\n// @version 1\n// ==/UserScript==\n")
        #expect(script.entries.map(\.key) == ["name", "version"])
    }
}
