import Foundation
import Testing
@testable import UserScripts

/// A userscript as Tampermonkey users write them: unknown keys, comments and blank lines inside
/// the block, aligned values. It must survive reading and writing byte for byte.
struct RoundTripTests {
    static let tampermonkeyScript = """
        // ==UserScript==
        // @name         GitHub: wide code view
        // @name:de      GitHub: breite Codeansicht
        // @namespace    https://github.com/someone/userscripts
        // @version      1.4.2
        // @description  Uses the whole window width for code and diffs.
        // @author       Someone <someone@example.com>
        // @icon         https://github.githubassets.com/favicons/favicon.svg
        //
        // Where it runs:
        // @match        https://github.com/*
        // @match        https://gist.github.com/*
        // @exclude-match https://github.com/settings/*

        // @grant        GM_xmlhttpRequest
        // @grant        GM_addStyle
        // @connect      api.github.com
        // @require      https://cdn.jsdelivr.net/npm/lodash@4.17.21/lodash.min.js
        // @license      MIT
        // @supportURL   https://github.com/someone/userscripts/issues
        // @homepageURL  https://github.com/someone/userscripts
        // @run-at       document-idle
        // ==/UserScript==

        (function () {
            'use strict';
            GM_addStyle('.container-xl { max-width: none !important; }');
        })();

        """

    @Test func readingAndWritingKeepsEveryByte() throws {
        let script = UserScript(text: Self.tampermonkeyScript, fallbackName: "x")
        #expect(script.text == Self.tampermonkeyScript)
        #expect(script.name == "GitHub: wide code view")
        #expect(script.values(for: "connect") == ["api.github.com"])
        #expect(script.grants == ["GM_xmlhttpRequest", "GM_addStyle"])
        #expect(script.runsAutomatically)
    }

    @Test func changingOneKeyRewritesOnlyItsLine() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.setValue("1.5.0", forKey: "version")
        let expected = Self.tampermonkeyScript.replacingOccurrences(of: "// @version      1.4.2", with: "// @version      1.5.0")
        #expect(script.text == expected)
        #expect(differingLines(Self.tampermonkeyScript, script.text) == [5])
    }

    @Test func settingAValueToWhatItIsChangesNothing() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.setValues(["https://github.com/*", "https://gist.github.com/*"], forKey: "match")
        #expect(script.text == Self.tampermonkeyScript)
    }

    @Test func replacingOneOfSeveralValuesKeepsTheOthers() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.setValues(["https://github.com/*", "https://gist.github.com/someone/*"], forKey: "match")
        #expect(differingLines(Self.tampermonkeyScript, script.text) == [12])
        #expect(script.values(for: "match") == ["https://github.com/*", "https://gist.github.com/someone/*"])
    }

    @Test func addingAValueInsertsOneAlignedLineAfterTheOthers() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.setValues(["https://github.com/*", "https://gist.github.com/*", "https://*.githubusercontent.com/*"], forKey: "match")
        var lines = Self.tampermonkeyScript.components(separatedBy: "\n")
        lines.insert("// @match        https://*.githubusercontent.com/*", at: 12)
        #expect(script.text == lines.joined(separator: "\n"))
    }

    @Test func addingANewKeyGoesAfterTheLastKeyAligned() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.setValue("https://example.com/update.user.js", forKey: "updateURL")
        var lines = Self.tampermonkeyScript.components(separatedBy: "\n")
        lines.insert("// @updateURL    https://example.com/update.user.js", at: 22)
        #expect(script.text == lines.joined(separator: "\n"))
    }

    @Test func removingAKeyRemovesOnlyItsLines() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        try script.removeValues(forKey: "grant")
        let expected = Self.tampermonkeyScript
            .replacingOccurrences(of: "// @grant        GM_xmlhttpRequest\n", with: "")
            .replacingOccurrences(of: "// @grant        GM_addStyle\n", with: "")
        #expect(script.text == expected)
    }

    @Test func replacingTheBodyKeepsTheBlock() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        script.setBody("\nconsole.log('hi');\n")
        #expect(script.text.hasPrefix(Self.tampermonkeyScript.components(separatedBy: "// ==/UserScript==\n")[0] + "// ==/UserScript==\n\nconsole.log"))
        #expect(script.body == "\nconsole.log('hi');\n")
    }

    @Test func editsKeepWindowsLineBreaks() throws {
        let text = "// ==UserScript==\r\n// @name  A\r\n// @version  1\r\n// ==/UserScript==\r\ngo()\r\n"
        var script = UserScript(text: text)
        try script.setValue("2", forKey: "version")
        try script.setValue("document-end", forKey: "run-at")
        #expect(script.text == "// ==UserScript==\r\n// @name  A\r\n// @version  2\r\n// @run-at document-end\r\n// ==/UserScript==\r\ngo()\r\n")
    }

    @Test func aFlagGetsAValueWithASpace() throws {
        var script = UserScript(text: "// ==UserScript==\n// @noframes\n// ==/UserScript==\n")
        try script.setValue("yes", forKey: "noframes")
        #expect(script.text == "// ==UserScript==\n// @noframes yes\n// ==/UserScript==\n")
    }

    @Test func settingAValueOnAFileWithoutABlockAddsOne() throws {
        var script = UserScript(text: "alert(1);\n", fallbackName: "quick")
        try script.setValue("Quick", forKey: "name")
        #expect(script.text == "// ==UserScript==\n// @name         Quick\n// ==/UserScript==\n\nalert(1);\n")
        #expect(script.body == "\nalert(1);\n")
    }

    @Test func valuesWithLineBreaksAreRefusedAndNothingChanges() throws {
        var script = UserScript(text: Self.tampermonkeyScript)
        let error = #expect(throws: MetadataError.self) { try script.setValue("a\n// @match *://*/*", forKey: "name") }
        #expect(error?.kind == .lineBreakInValue("name"))
        #expect(throws: MetadataError.self) { try script.setValue("a\r\n// @match *://*/*", forKey: "name") }
        #expect(script.text == Self.tampermonkeyScript)
    }

    @Test func makeWritesABlockInTheUsualLayout() throws {
        let script = try UserScript.make(name: "Tidy", description: "Tidies", matches: ["*://example.com/*"], runAt: .documentIdle, body: "tidy();\n")
        #expect(script.text == """
            // ==UserScript==
            // @name         Tidy
            // @description  Tidies
            // @match        *://example.com/*
            // @run-at       document-idle
            // @grant        none
            // ==/UserScript==

            tidy();

            """)
    }

    private func differingLines(_ before: String, _ after: String) -> [Int] {
        let old = before.components(separatedBy: "\n")
        let new = after.components(separatedBy: "\n")
        guard old.count == new.count else { return [-1] }
        return zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
    }
}
