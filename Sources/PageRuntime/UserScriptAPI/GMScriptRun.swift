import GMAPI
import SystemSupport
import UserScripts

/// One userscript's share of the GM API for a run: what the page half (`GM.js`) is sent with the
/// run, and what the host half needs to answer it.
///
/// Made by ``GMHost/prepare(_:id:environment:)``: the script's values as they are now (so that `GM_getValue`
/// answers synchronously), `GM_info`, its `@require` files (run before the script, in its scope)
/// and `@resource` files, its `@connect` policy and the API names its `@grant` lines ask for.
///
/// ```swift
/// let userScript = try await host.prepare(stored.script, id: stored.id)
/// let result = try await page.run(try PreparedScript(stored.script.text, userScript: userScript))
/// ```
public struct GMScriptRun: Sendable {
    /// The script.
    public let script: UserScript
    /// Its ID: the library's, or one made for a script that is not in the library.
    public let id: ScriptID
    /// Whether its values are kept in the library (else for the host's life only).
    public let keepsValues: Bool
    /// The API names the script is given, and the grants PageScript does not provide.
    public let grants: GMGrants
    /// The values when the run was prepared.
    public let values: ScriptValues
    /// `GM_info`.
    public let info: JSONValue
    /// The `@require` files' text, in order.
    public let requires: [String]
    /// The `@resource` files: name to `{"text", "url"}` (a `data:` URL).
    public let resources: JSONValue
    /// Where `GM_xmlhttpRequest` may go.
    public let policy: ConnectPolicy
    let host: GMHost
    /// Where the run stands in its host's value changes (``GMValueFeed``): shared by every copy,
    /// so each change reaches the run once, whichever session delivers it.
    let valueCursor: GMValueFeed.Cursor

    /// What the page half is sent with the run: `{"values", "info", "resources", "watchesURL", "downloads", "cookies", "windowMethods",
    /// "notifications", "clipboard"}` (whether notifications are shown, and answered later; whether the clipboard is set).
    var requestData: JSONValue {
        ["values": values.object, "info": info, "resources": resources, "watchesURL": .bool(grants.watchesURL),
         "downloads": .bool(grants.promisesDownload), "cookies": .bool(grants.promisesCookie),
         "windowMethods": .array(grants.windowMethods.map(JSONValue.string)), "notifications": .bool(host.notifications != nil),
         "clipboard": .bool(host.clipboard != nil)]
    }
}
