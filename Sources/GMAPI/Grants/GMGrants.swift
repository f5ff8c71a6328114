import UserScripts

/// Which names of the userscript API a script is given, read from its `@grant` lines.
///
/// Every userscript gets `GM_info` and `unsafeWindow` (the managers give them even with
/// `@grant none`). Each granted `GM_*` function is given under its name; any `GM.*` grant gives the
/// `GM` object with the promise forms. A script with no `@grant` line at all is read as
/// Tampermonkey reads it: it gets the API names its text uses. `@grant window.onurlchange` asks
/// for Tampermonkey's `urlchange` event on single-page navigations (``watchesURL``);
/// `@grant window.close` and `window.focus` give the script a `window` of its own whose `close`
/// and `focus` are reported rather than done (``windowMethods``). A grant
/// PageScript does not provide (`GM_webRequest`, ...) is listed in ``unprovided``, to be reported once
/// per run.
///
/// ```swift
/// let grants = GMGrants(script: stored.script)
/// grants.names       // ["GM_info", "unsafeWindow", "GM_getValue", "GM_setValue"]
/// grants.unprovided  // ["GM_webRequest"]
/// ```
public struct GMGrants: Sendable, Hashable {
    /// The names the script's function takes, in a fixed order.
    public let names: [String]
    /// The `@grant` values PageScript does not provide, in file order, each once.
    public let unprovided: [String]
    /// Whether the script asked for `window.onurlchange`: `window.onurlchange` is `null` when it
    /// starts, and a `urlchange` event with the new `url` follows each `history.pushState`,
    /// `replaceState` or hash change where PageScript follows the page (`pagescript browse`).
    public let watchesURL: Bool
    /// Whether the `GM` object carries `download`: only for a script that asked for
    /// `GM.download` (its other promise forms come with any `GM.*` grant, `download` does not).
    public let promisesDownload: Bool
    /// Whether the `GM` object carries `cookie`: only for a script that asked for `GM.cookie`,
    /// as with ``promisesDownload``.
    public let promisesCookie: Bool
    /// The window methods the script was granted (`close`, `focus`, from `@grant window.close`
    /// and `window.focus`): its `window` is then the page's window with those two reported
    /// instead of done (`names` carries `window`).
    public let windowMethods: [String]

    /// The `GM_*` functions PageScript provides.
    public static let functions = [
        "GM_getValue", "GM_setValue", "GM_deleteValue", "GM_listValues", "GM_getValues", "GM_setValues", "GM_deleteValues",
        "GM_addValueChangeListener", "GM_removeValueChangeListener",
        "GM_addStyle", "GM_addElement", "GM_xmlhttpRequest", "GM_getResourceText", "GM_getResourceURL", "GM_log",
        "GM_notification", "GM_setClipboard", "GM_openInTab", "GM_registerMenuCommand", "GM_unregisterMenuCommand", "GM_download",
        "GM_cookie", "GM_getTab", "GM_saveTab", "GM_getTabs",
    ]
    /// The members of the `GM` object PageScript provides (Greasemonkey 4's promise forms).
    public static let promiseMembers = [
        "info", "getValue", "setValue", "deleteValue", "listValues", "getValues", "setValues", "deleteValues", "addStyle", "addElement",
        "xmlHttpRequest",
        "getResourceText", "getResourceUrl", "log", "notification", "setClipboard", "openInTab", "registerMenuCommand",
        "unregisterMenuCommand", "download", "cookie", "getTab", "saveTab", "getTabs",
    ]
    /// What every userscript gets.
    public static let always = ["GM_info", "unsafeWindow"]
    /// Grants that ask for nothing PageScript must provide: `none`, and window methods every
    /// page script has anyway.
    static let needNothing: Set<String> = ["none", "unsafeWindow", "GM_info", "GM.info", "window.close", "window.focus"]

    /// The grants of `script`.
    public init(script: UserScript) {
        self.init(grants: script.grants, text: script.text)
    }

    /// The grants written (`grants`, as after `@grant`), or, when there are none, the API names
    /// `text` uses.
    public init(grants: [String], text: String) {
        var names = Self.always
        var unprovided: [String] = []
        let asked = grants.isEmpty ? Self.used(in: text) : grants
        var wantsPromises = false
        var watchesURL = false
        var windowMethods: [String] = []
        for grant in asked {
            if grant == "window.onurlchange" {
                watchesURL = true
            } else if grant == "window.close" || grant == "window.focus" {
                let method = String(grant.dropFirst("window.".count))
                if !windowMethods.contains(method) { windowMethods.append(method) }
            } else if Self.functions.contains(grant) {
                if !names.contains(grant) { names.append(grant) }
            } else if grant == "GM" || grant.hasPrefix("GM.") && Self.promiseMembers.contains(String(grant.dropFirst(3))) {
                wantsPromises = true
            } else if !Self.needNothing.contains(grant), !unprovided.contains(grant) {
                unprovided.append(grant)
            }
        }
        if wantsPromises { names.append("GM") }
        if !windowMethods.isEmpty { names.append("window") }
        self.names = names
        self.unprovided = unprovided
        self.watchesURL = watchesURL
        self.windowMethods = windowMethods
        promisesDownload = asked.contains("GM.download")
        promisesCookie = asked.contains("GM.cookie")
    }

    /// Whether the script may download files (`GM_download` or `GM.download`): PageScript
    /// refuses a download from any other.
    public var downloads: Bool {
        promisesDownload || names.contains("GM_download")
    }

    /// Whether the script may reach the browser's cookies (`GM_cookie` or `GM.cookie`): PageScript
    /// refuses a cookie call from any other.
    public var cookies: Bool {
        promisesCookie || names.contains("GM_cookie")
    }

    /// Whether the script may keep objects per tab (`GM_getTab`, `GM_saveTab`, `GM_getTabs`, or
    /// the `GM` object's forms): PageScript refuses a tab call from any other.
    public var tabs: Bool {
        names.contains("GM") || names.contains("GM_getTab") || names.contains("GM_saveTab") || names.contains("GM_getTabs")
    }

    /// The API names `text` mentions: `GM_x` functions PageScript has, and `GM` when `GM.` appears.
    static func used(in text: String) -> [String] {
        var found = functions.filter { text.contains($0) }
        if text.contains("GM.") { found.append("GM") }
        if text.contains("GM.download") { found.append("GM.download") }
        if text.contains("GM.cookie") { found.append("GM.cookie") }
        return found
    }
}
