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

    /// Every member Tampermonkey documents is there, with the values it would give where
    /// PageScript cannot know them, and the environment's browser and world.
    @Test func gmInfoHasEveryMemberTampermonkeyDocuments() throws {
        let text = """
            // ==UserScript==
            // @name         Ads away
            // @name:de      Weg mit Werbung
            // @description:de Entfernt Werbung
            // @copyright    2026, Someone
            // @icon64       https://example.com/64.png
            // @antifeature  ads Shows its own banner
            // @antifeature:de ads Zeigt ein Banner
            // @antifeature  tracking
            // @updateURL    https://example.com/ads.meta.js
            // @sandbox      raw
            // @unwrap
            // ==/UserScript==
            """
        let script = UserScript(text: text)
        let environment = GMEnvironment(capabilities: ["browserName": "chrome", "browserVersion": "156.0.7000.12", "platformName": "linux"])
        let info = GMInfo.make(for: script, id: "k3", handlerVersion: "0.2.0", environment: environment)
        for member in ["script", "scriptMetaStr", "scriptHandler", "version", "scriptUpdateURL", "scriptWillUpdate", "isIncognito", "downloadMode",
                       "platform", "userAgentData", "uuid", "sandboxMode", "injectInto"] {
            #expect(info[member] != nil, "\(member)")
        }
        let details = try #require(info.script)
        for member in ["antifeatures", "author", "blockers", "connects", "copyright", "description_i18n", "description", "downloadURL", "excludes",
                       "fileURL", "grant", "header", "homepage", "icon", "icon64", "includes", "lastModified", "matches", "name_i18n", "name",
                       "namespace", "position", "resources", "supportURL", "run-at", "unwrap", "updateURL", "version", "webRequest", "options",
                       "requires", "require", "noframes"] {
            #expect(details[member] != nil, "\(member)")
        }
        #expect(details["name_i18n"] == ["de": "Weg mit Werbung"])
        #expect(details["description_i18n"] == ["de": "Entfernt Werbung"])
        #expect(details["copyright"] == "2026, Someone")
        #expect(details["icon64"] == "https://example.com/64.png")
        #expect(details["antifeatures"] == ["ads": ["default": "Shows its own banner", "de": "Zeigt ein Banner"], "tracking": ["default": ""]])
        #expect(details["header"] == info["scriptMetaStr"])
        #expect(details["unwrap"] == true)
        #expect(details["options"]?["sandbox"] == "raw")
        #expect(details["options"]?["check_for_updates"] == true)
        #expect(details["options"]?["override"]?["orig_matches"] == [])
        #expect(info["scriptUpdateURL"] == "https://example.com/ads.meta.js")
        #expect(info["downloadMode"] == "native")
        #expect(info["isIncognito"] == false)
        #expect(info["sandboxMode"] == "raw")
        #expect(info["injectInto"] == "page")
        #expect(info["platform"]?["os"] == "linux")
        #expect(info["platform"]?["arch"] == .string(GMEnvironment.machineArch))
        #expect(info["platform"]?["browserName"] == "chrome")
        #expect(info["platform"]?["browserVersion"] == "156.0.7000.12")
        #expect(info["userAgentData"] == ["brands": [["brand": "Chromium", "version": "156"]], "mobile": false, "platform": "Linux"])
        let isolated = GMInfo.make(for: script, id: "k3", handlerVersion: "0.2.0",
                                   environment: GMEnvironment(capabilities: ["browserName": "MiniBrowser", "browserVersion": "2.50.1"], isolated: true))
        #expect(isolated["sandboxMode"] == "dom")
        #expect(isolated["injectInto"] == "content")
        #expect(isolated["platform"]?["browserName"] == "webkitgtk")
        let bare = GMInfo.make(for: UserScript(text: "// ==UserScript==\n// @name Bare\n// ==/UserScript==\n"), id: "b", handlerVersion: "1")
        #expect(bare["scriptUpdateURL"] == .null)
        #expect(bare["userAgentData"]?["brands"] == [])
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
