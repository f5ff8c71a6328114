import SystemSupport
import Testing
import UserScripts
@testable import GMAPI

struct GMInfoTests {
    @Test func gmInfoCarriesTheParsedMetadataAsTheManagersExposeIt() throws {
        let text = """
            // ==UserScript==
            // @name         Tidy tables
            // @namespace    https://example.com/scripts
            // @version      1.2.3
            // @description  Makes tables readable
            // @author       Someone
            // @homepageURL  https://example.com/tidy
            // @match        *://example.com/*
            // @include      https://*.example.org/*
            // @exclude      https://example.com/admin*
            // @exclude-match *://example.com/private/*
            // @grant        GM_getValue
            // @grant        GM_xmlhttpRequest
            // @connect      api.example.com
            // @require      https://code.jquery.com/jquery-3.7.1.min.js#sha256=abc
            // @resource     css https://example.com/tidy.css
            // @run-at       document-end
            // @noframes
            // @downloadURL  https://example.com/tidy.user.js
            // ==/UserScript==
            $('table').addClass('tidy');

            """
        let script = UserScript(text: text, fallbackName: "tidy")
        let info = GMInfo.make(for: script, id: "k3m9x2ab", handlerVersion: "0.1.0")
        let details = try #require(info["script"])
        #expect(details["name"] == "Tidy tables")
        #expect(details["namespace"] == "https://example.com/scripts")
        #expect(details["version"] == "1.2.3")
        #expect(details["description"] == "Makes tables readable")
        #expect(details["author"] == "Someone")
        #expect(details["homepage"] == "https://example.com/tidy")
        #expect(details["matches"] == ["*://example.com/*"])
        #expect(details["includes"] == ["https://*.example.org/*"])
        #expect(details["excludes"] == ["https://example.com/admin*"])
        #expect(details["excludeMatches"] == ["*://example.com/private/*"])
        #expect(details["grant"] == ["GM_getValue", "GM_xmlhttpRequest"])
        #expect(details["connects"] == ["api.example.com"])
        #expect(details["requires"] == ["https://code.jquery.com/jquery-3.7.1.min.js#sha256=abc"])
        #expect(details["resources"] == [["name": "css", "url": "https://example.com/tidy.css"]])
        #expect(details["runAt"] == "document-end")
        #expect(details["run-at"] == "document-end")
        #expect(details["noframes"] == true)
        #expect(details["downloadURL"] == "https://example.com/tidy.user.js")
        #expect(details["uuid"] == "k3m9x2ab")
        #expect(info["scriptHandler"] == "PageScript")
        #expect(info["version"] == "0.1.0")
        #expect(info["uuid"] == "k3m9x2ab")
        #expect(info["scriptWillUpdate"] == true)
        let block = try #require(info["scriptMetaStr"]?.stringValue)
        #expect(block.hasPrefix("// ==UserScript==\n// @name         Tidy tables\n"))
        #expect(block.hasSuffix("// ==/UserScript==\n"))
    }

    @Test func absentFieldsAreEmptyTextAndTheRunAtIsTampermonkeysDefault() throws {
        let script = UserScript(text: "// ==UserScript==\n// @name Bare\n// ==/UserScript==\n1\n")
        let details = try #require(GMInfo.make(for: script, id: "abc", handlerVersion: "9").script)
        #expect(details["version"] == "")
        #expect(details["namespace"] == "")
        #expect(details["matches"] == [])
        #expect(details["resources"] == [])
        #expect(details["runAt"] == "document-idle")
        #expect(GMInfo.make(for: script, id: "abc", handlerVersion: "9")["scriptWillUpdate"] == false)
    }

    @Test func theMetadataBlockIsFoundInCRLFFilesAndAfterALeadingComment() throws {
        let text = "/* licence */\r\n// ==UserScript==\r\n// @name CRLF\r\n// ==/UserScript==\r\nrun();\r\n"
        let script = UserScript(text: text)
        #expect(GMInfo.metadataBlock(of: script) == "// ==UserScript==\r\n// @name CRLF\r\n// ==/UserScript==\r\n")
        let none = UserScript(text: "console.log(1)\n", fallbackName: "plain")
        #expect(GMInfo.metadataBlock(of: none) == "")
        #expect(GMInfo.make(for: none, id: "x", handlerVersion: "1")["script"]?["name"] == "plain")
    }
}

private extension JSONValue {
    var script: JSONValue? { self["script"] }
}
