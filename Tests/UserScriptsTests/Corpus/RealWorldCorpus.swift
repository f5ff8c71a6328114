import Foundation
import Testing
@testable import UserScripts

/// Userscripts shaped like the ones people keep in Tampermonkey, Violentmonkey and Greasemonkey
/// (written here, after the forms seen on Greasy Fork and GitHub), each with what PageScript should
/// conclude about it. Import and export must return every one of them byte for byte.
struct CorpusScript: Sendable, CustomTestStringConvertible {
    /// The file name it is imported from.
    let file: String
    /// The file's bytes.
    let bytes: [UInt8]
    /// How it should run.
    let runMode: RunMode
    /// The lines PageScript should set aside (not comments).
    let setAsideLines: [Int]

    var testDescription: String { file }

    init(_ file: String, _ text: String, runs runMode: RunMode, setAside setAsideLines: [Int] = []) {
        self.init(file, bytes: Array(text.utf8), runs: runMode, setAside: setAsideLines)
    }

    init(_ file: String, bytes: [UInt8], runs runMode: RunMode, setAside setAsideLines: [Int] = []) {
        self.file = file
        self.bytes = bytes
        self.runMode = runMode
        self.setAsideLines = setAsideLines
    }
}

enum RealWorldCorpus {
    static let idle = RunMode.automatic(.documentIdle)

    static let scripts: [CorpusScript] = [
        CorpusScript("tampermonkey-template.user.js", """
            // ==UserScript==
            // @name         New Userscript
            // @namespace    http://tampermonkey.net/
            // @version      2024-05-01
            // @description  try to take over the world!
            // @author       You
            // @match        https://www.example.com/*
            // @icon         https://www.google.com/s2/favicons?sz=64&domain=example.com
            // @grant        none
            // ==/UserScript==

            (function() {
                'use strict';

                // Your code here...
            })();
            """, runs: idle),
        CorpusScript("bom-crlf.user.js", bytes: [0xEF, 0xBB, 0xBF] + Array((
            "// ==UserScript==\r\n// @name         Windows script\r\n// @match        *://*.example.org/*\r\n// @run-at       document-end\r\n"
            + "// @grant        GM_addStyle\r\n// ==/UserScript==\r\n\r\nGM_addStyle('body { font-size: 110% }');\r\n").utf8),
            runs: .automatic(.documentEnd)),
        CorpusScript("localized.user.js", """
            // ==UserScript==
            // @name            Wide Wikipedia
            // @name:de         Breites Wikipedia
            // @name:fr         Wikipédia en pleine largeur
            // @name:zh-CN     维基百科宽屏
            // @name:ja        ウィキペディア全幅
            // @description     Uses the whole window
            // @description:de  Nutzt das ganze Fenster
            // @description:ru  Использует всё окно
            // @namespace       https://greasyfork.org/users/12345
            // @version         3.1.4
            // @match           https://*.wikipedia.org/wiki/*
            // @grant           none
            // @license         MIT
            // ==/UserScript==
            document.body.classList.add('wide');

            """, runs: idle),
        CorpusScript("large-300kb.user.js", largeScript(), runs: idle),
        CorpusScript("many-includes.user.js", manyIncludes(), runs: idle, setAside: [324]),
        CorpusScript("regex-include-safe.user.js", """
            // ==UserScript==
            // @name        YouTube theatre
            // @include     /^https?:\\/\\/(www\\.|m\\.)?youtube\\.com\\/watch/
            // @include     /^https:\\/\\/([^\\/]+\\.)?youtube-nocookie\\.com(:\\d+)?\\/embed\\//
            // @version     1.0
            // @grant       none
            // ==/UserScript==
            document.querySelector('ytd-watch-flexy')?.setAttribute('theater', '');

            """, runs: idle),
        CorpusScript("regex-include-unsafe.user.js", """
            // ==UserScript==
            // @name        Any example
            // @include     /https?:\\/\\/.*example\\.com/
            // @include     /^https:\\/\\/www.example.net\\//
            // @include     /^https?:\\/\\/[^/]*example\\.org\\//
            // @include     /^https?:\\/\\/example\\.info/
            // @match       https://example.com/safe/*
            // ==/UserScript==
            console.log('hi');

            """, runs: idle, setAside: [3, 4, 5, 6]),
        CorpusScript("regex-exclude.user.js", """
            // ==UserScript==
            // @name        Everywhere but logins
            // @match       *://*/*
            // @exclude     /\\/(login|logout|signin)\\b/
            // @exclude     /^https:\\/\\/accounts\\./
            // @run-at      document-start
            // ==/UserScript==
            void 0;

            """, runs: .automatic(.documentStart)),
        CorpusScript("greasemonkey-tld.user.js", """
            // ==UserScript==
            // @name        Google and Amazon tweaks
            // @namespace   https://github.com/someone/userscripts
            // @include     *://*.google.tld/search*
            // @include     http://www.amazon.tld/*
            // @include     https://www.amazon.tld/*
            // @exclude     *://*.google.tld/maps*
            // @grant       GM.getValue
            // @grant       GM.setValue
            // @version     0.9
            // ==/UserScript==
            (async () => { await GM.getValue('x'); })();

            """, runs: idle),
        CorpusScript("require-jquery.user.js", """
            // ==UserScript==
            // @name        jQuery helper
            // @match       https://news.ycombinator.com/*
            // @require     https://code.jquery.com/jquery-3.7.1.min.js
            // @require     https://cdn.jsdelivr.net/npm/lodash@4.17.21/lodash.min.js
            // @grant       none
            // ==/UserScript==
            $('.titleline').css('font-size', '14px');

            """, runs: idle),
        CorpusScript("require-hashes.user.js", """
            // ==UserScript==
            // @name        Hashed requires
            // @match       https://github.com/*
            // @require     https://code.jquery.com/jquery-3.7.1.min.js#sha256=fc9a93dd241f6b045cbff0481cf4e1901becd0e12fb45166a8f17f95823f0b1a
            // @require     https://unpkg.com/moment@2.30.1/moment.js#md5=0123456789abcdef0123456789abcdef,sha256=fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210
            // @require     https://unpkg.com/dayjs@1.11.10/dayjs.min.js#sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC
            // @grant       none
            // ==/UserScript==
            moment();

            """, runs: idle),
        CorpusScript("resources.user.js", """
            // ==UserScript==
            // @name        Themed
            // @match       https://example.com/*
            // @resource    css https://example.com/theme.css#sha256=00aa
            // @resource    icon img/icon.png
            // @resource    font   fonts/Inter.woff2
            // @downloadURL https://raw.githubusercontent.com/someone/themed/main/themed.user.js
            // @updateURL   https://raw.githubusercontent.com/someone/themed/main/themed.meta.js
            // @grant       GM_getResourceText
            // @grant       GM_addStyle
            // ==/UserScript==
            GM_addStyle(GM_getResourceText('css'));

            """, runs: idle),
        CorpusScript("comments-in-block.user.js", """
            // ==UserScript==
            // @name         Commented
            //
            // This script hides the cookie banner.
            // ------------------------------------
            // Changelog:
            //   1.1 - works on the new layout
            // @version      1.1

            // @match        https://example.com/*
            // include the header on article pages only
            // ==/UserScript==
            document.querySelector('#cookie')?.remove();

            """, runs: idle),
        CorpusScript("greasemonkey4.user.js", """
            // ==UserScript==
            // @name     GM4 style
            // @version  1
            // @include  https://example.com/*
            // @include  http://example.com/*
            // @exclude  https://example.com/private/*
            // @grant    GM.xmlHttpRequest
            // @grant    GM.notification
            // ==/UserScript==
            GM.notification('hello');

            """, runs: idle),
        CorpusScript("violentmonkey.user.js", """
            // ==UserScript==
            // @name        Violent tweaks
            // @namespace   Violentmonkey Scripts
            // @match       https://*.example.com/*
            // @exclude-match https://admin.example.com/*
            // @exclude-match https://*.example.*/checkout/*
            // @grant       none
            // @version     1.0
            // @author      -
            // @run-at      document-start
            // @noframes
            // @description 5/1/2024, 10:00:00 AM
            // ==/UserScript==
            document.documentElement.dataset.tweaked = '1';

            """, runs: .automatic(.documentStart)),
        CorpusScript("context-menu.user.js", """
            // ==UserScript==
            // @name        Copy page title
            // @match       *://*/*
            // @run-at      context-menu
            // @grant       GM_setClipboard
            // ==/UserScript==
            GM_setClipboard(document.title);

            """, runs: .onDemand(.contextMenu(line: 4))),
        CorpusScript("document-body.user.js", """
            // ==UserScript==
            // @name        Early styles
            // @match       https://example.com/*
            // @run-at      document-body
            // ==/UserScript==
            document.body.style.background = '#111';

            """, runs: .automatic(.documentBody)),
        CorpusScript("unknown-run-at.user.js", """
            // ==UserScript==
            // @name        Typo in run-at
            // @match       https://example.com/*
            // @run-at      document-ready
            // ==/UserScript==
            go();

            """, runs: idle, setAside: [4]),
        CorpusScript("duplicate-keys.user.js", """
            // ==UserScript==
            // @name        First name
            // @version     1.0
            // @match       https://example.com/*
            // @name        Second name
            // @version     2.0
            // ==/UserScript==
            go();

            """, runs: idle, setAside: [5, 6]),
        CorpusScript("key-without-at.user.js", """
            // ==UserScript==
            // @name        Forgotten at
            // match        https://example.com/*
            // @match       https://example.org/*
            // ==/UserScript==
            go();

            """, runs: idle),
        CorpusScript("no-block.user.js", "// A quick fix, no metadata\ndocument.title = document.title.trim();\n", runs: .onDemand(.noSiteRules)),
        CorpusScript("unclosed-block.user.js", """
            // ==UserScript==
            // @name        Never closed
            // @match       https://example.com/*

            go();

            """, runs: .onDemand(.blockNotClosed(line: 1)), setAside: [1]),
        CorpusScript("license-header.user.js", """
            /*
             * Copyright (c) 2023 Someone
             * SPDX-License-Identifier: MIT
             */
            // ==UserScript==
            // @name        Licensed
            // @match       https://example.com/*
            // ==/UserScript==
            go();

            """, runs: idle),
        CorpusScript("odd-spacing.user.js", "// ==UserScript==\n//@name\tTabbed\n  //   @match      https://example.com/*   \n\t// @grant none\n// ==/UserScript==\ngo();\n", runs: idle),
        CorpusScript("all-urls.user.js", """
            // ==UserScript==
            // @name        Every page
            // @match       <all_urls>
            // @grant       none
            // ==/UserScript==
            void 0;

            """, runs: idle),
        CorpusScript("include-everything.user.js", """
            // ==UserScript==
            // @name        Old everywhere
            // @include     *
            // @exclude     *://*.bank.*/*
            // ==/UserScript==
            void 0;

            """, runs: idle),
        CorpusScript("invalid-match.user.js", """
            // ==UserScript==
            // @name        Some bad rules
            // @match       *://*.google.*/*
            // @match       http://example.com
            // @match       https://example.com/*
            // ==/UserScript==
            go();

            """, runs: idle, setAside: [3, 4]),
        CorpusScript("local-files.user.js", """
            // ==UserScript==
            // @name        Local docs
            // @include     file:///home/*/docs/*
            // @match       http://127.0.0.1:8080/*
            // @match       http://localhost:3000/*
            // ==/UserScript==
            go();

            """, runs: idle),
        CorpusScript("unicode.user.js", """
            // ==UserScript==
            // @name        Emoji ✨ reactions 👍🏽
            // @name:ko     이모지 반응
            // @match       https://example.com/*
            // ==/UserScript==
            const reactions = ['👍🏽', '🎉', '❤️', '家族👨‍👩‍👧'];
            console.log(reactions.join(' '), 'Ελληνικά', 'עברית', 'العربية');

            """, runs: idle),
        CorpusScript("minified-long-line.user.js", minifiedScript(), runs: idle),
        CorpusScript("many-keys.user.js", """
            // ==UserScript==
            // @name         Everything keys
            // @namespace    https://openuserjs.org/users/someone
            // @version      10.2.3
            // @author       Someone <someone@example.com>
            // @homepageURL  https://github.com/someone/everything
            // @supportURL   https://github.com/someone/everything/issues
            // @icon         data:image/png;base64,\(String(repeating: "iVBORw0KGgo", count: 200))
            // @match        https://example.com/*
            // @connect      api.example.com
            // @connect      self
            // @connect      *
            // @antifeature  tracking
            // @compatible   firefox
            // @incompatible safari
            // @sandbox      JavaScript
            // @inject-into  content
            // @unwrap
            // @grant        GM_xmlhttpRequest
            // @grant        unsafeWindow
            // @grant        window.onurlchange
            // ==/UserScript==
            window.addEventListener('urlchange', () => {});

            """, runs: idle),
        CorpusScript("no-trailing-newline.user.js", "// ==UserScript==\n// @name No newline\n// @match https://example.com/*\n// ==/UserScript==\ngo()", runs: idle),
        CorpusScript("fragment-include.user.js", """
            // ==UserScript==
            // @name        Single page app
            // @include     https://mail.example.com/#inbox*
            // @include     /^https:\\/\\/mail\\.example\\.com\\/.*#inbox/
            // ==/UserScript==
            go();

            """, runs: idle, setAside: [3]),
        CorpusScript("regex-flags.user.js", """
            // ==UserScript==
            // @name        Flags
            // @include     /^https:\\/\\/EXAMPLE\\.com\\/Path/i
            // @include     /^https:\\/\\/example\\.org\\//u
            // ==/UserScript==
            go();

            """, runs: idle, setAside: [4]),
        CorpusScript("unreadable-exclude.user.js", """
            // ==UserScript==
            // @name        Lookbehind exclude
            // @match       https://example.com/*
            // @exclude     /(?<=admin)\\/users/
            // ==/UserScript==
            go();

            """, runs: .onDemand(.unreadableExclusion(line: 4)), setAside: [4]),
        CorpusScript("every-include-refused.user.js", """
            // ==UserScript==
            // @name        Nothing usable
            // @include     *google*
            // @include     /google/
            // ==/UserScript==
            go();

            """, runs: .onDemand(.everySiteRuleSetAside), setAside: [3, 4]),
    ]

    /// A script of about 300 KB: a long body, as bundled scripts are.
    static func largeScript() -> String {
        var text = """
            // ==UserScript==
            // @name        Bundled app
            // @match       https://app.example.com/*
            // @grant       none
            // ==/UserScript==

            """
        var line = 0
        while text.utf8.count < 300_000 {
            line += 1
            text += "const value\(line) = computeSomething(\(line), 'a string with some content to fill the line');\n"
        }
        return text
    }

    /// 320 `@include` lines and one unusable one (line 324), and a few exclusions.
    static func manyIncludes() -> String {
        var text = "// ==UserScript==\n// @name        Forum helper for many sites\n// @version     5.0\n"
        for index in 0..<320 {
            text += "// @include     *://forum\(index).example.net/*\n"
        }
        text += "// @include     *forum*\n"
        text += "// @exclude     *://forum7.example.net/admin/*\n// @exclude     /\\/private\\//\n// ==/UserScript==\nhelp();\n"
        return text
    }

    /// A minified script: one line of about 100 KB.
    static func minifiedScript() -> String {
        "// ==UserScript==\n// @name Minified\n// @match https://example.com/*\n// ==/UserScript==\n"
            + String(repeating: "var a=function(b){return b*2};", count: 3_300) + "\n"
    }
}
