import SystemSupport

/// One `GM_setClipboard` call: the data as the managers convert it (`String(data)`), its type
/// (`text` or `html`) and MIME type (`text/plain` for text, `text/html` for html, unless the
/// script named another with `{type, mimetype}`).
///
/// In `--json` it is an entry of the `userscript` member's `"clipboard"`: `{"data","type","mimetype"}`.
public struct GMClipboardWrite: Sendable, Equatable {
    /// What the script put on the clipboard.
    public var data: String
    /// `text` or `html` (or what else the script named).
    public var type: String
    /// The MIME type.
    public var mimetype: String

    /// A write of `data` as `type`, with the MIME type that type has unless `mimetype` says otherwise.
    public init(data: String, type: String = "text", mimetype: String? = nil) {
        self.data = data
        self.type = type
        self.mimetype = mimetype ?? (type == "html" ? "text/html" : "text/plain")
    }

    /// The write as JSON (see the type's discussion).
    public var json: JSONValue {
        ["data": .string(data), "type": .string(type), "mimetype": .string(mimetype)]
    }
}
