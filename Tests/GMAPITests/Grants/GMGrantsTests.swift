import GMAPI
import Testing

/// Which API names a script gets from its `@grant` lines.
struct GMGrantsTests {
    @Test(arguments: [
        (["GM_getValue", "GM_setValue"], ["GM_info", "unsafeWindow", "GM_getValue", "GM_setValue"], [String]()),
        (["none"], ["GM_info", "unsafeWindow"], []),
        (["GM.getValue", "GM_addStyle", "GM.xmlHttpRequest"], ["GM_info", "unsafeWindow", "GM_addStyle", "GM"], []),
        (["GM_webRequest", "window.onurlchange", "GM_webRequest", "window.close", "unsafeWindow"], ["GM_info", "unsafeWindow", "window"],
         ["GM_webRequest"]),
        (["GM.cookie", "GM.getTab", "GM.webRequest"], ["GM_info", "unsafeWindow", "GM"], ["GM.webRequest"]),
        (["GM_getTab", "GM_saveTab", "GM_getTabs"], ["GM_info", "unsafeWindow", "GM_getTab", "GM_saveTab", "GM_getTabs"], []),
    ])
    func grantsGiveTheirNames(grants: [String], names: [String], unprovided: [String]) {
        let read = GMGrants(grants: grants, text: "GM_xmlhttpRequest({})")
        #expect(read.names == names)
        #expect(read.unprovided == unprovided)
        #expect(read.watchesURL == grants.contains("window.onurlchange"))
    }

    @Test func aScriptWithoutGrantsGetsTheNamesItUses() {
        let read = GMGrants(grants: [], text: "GM_addStyle('a{}'); const v = GM_getValue('k'); await GM.setValue('k', 1);")
        #expect(read.names == ["GM_info", "unsafeWindow", "GM_getValue", "GM_addStyle", "GM"])
        #expect(read.unprovided.isEmpty)
    }

    /// `GM.download` is in the `GM` object only for a script that names it: any other `GM.*`
    /// grant leaves it out, and a script without grants gets it only when its text uses it.
    @Test(arguments: [
        (["GM_download"], "", true, false),
        (["GM.download"], "", true, true),
        (["GM.getValue", "GM.xmlHttpRequest"], "GM.download(url)", false, false),
        ([], "await GM.download(url)", true, true),
        ([], "GM_download(url, name)", true, false),
        ([], "await GM.getValue('k')", false, false),
    ])
    func downloadsAreGivenOnlyWhenNamed(grants: [String], text: String, downloads: Bool, promises: Bool) {
        let read = GMGrants(grants: grants, text: text)
        #expect(read.downloads == downloads)
        #expect(read.promisesDownload == promises)
    }

    /// `GM.cookie` likewise: a cookie call reaches only a script that asked for the API by name.
    @Test(arguments: [
        (["GM_cookie"], "", true, false),
        (["GM.cookie"], "", true, true),
        (["GM.getValue"], "GM.cookie.list({})", false, false),
        ([], "await GM.cookie.list({})", true, true),
        ([], "GM_cookie.list({}, show)", true, false),
    ])
    func cookiesAreGivenOnlyWhenNamed(grants: [String], text: String, cookies: Bool, promises: Bool) {
        let read = GMGrants(grants: grants, text: text)
        #expect(read.cookies == cookies)
        #expect(read.promisesCookie == promises)
    }

    /// `window.close` and `window.focus` give the script a `window` of its own, listing the
    /// methods it was granted; text that merely calls them gets nothing (Tampermonkey asks for the grant).
    @Test(arguments: [
        (["window.close"], "", ["close"]),
        (["window.focus", "window.close", "window.focus"], "", ["focus", "close"]),
        (["GM_getValue"], "window.close()", []),
        ([], "window.close(); GM_getValue('k')", []),
    ])
    func windowMethodsAreGivenOnlyWhenGranted(grants: [String], text: String, methods: [String]) {
        let read = GMGrants(grants: grants, text: text)
        #expect(read.windowMethods == methods)
        #expect(read.names.contains("window") == !methods.isEmpty)
        #expect(read.unprovided.isEmpty)
    }
}
