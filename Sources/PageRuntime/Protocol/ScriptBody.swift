import SystemSupport

/// The bodies of PageScript's Execute Script calls, and where the user's code sits in them.
///
/// A run's body is two constant lines that find the runtime's entry point and call it, then each
/// script's code inside a function expression, each starting on a line of its own:
///
/// ```text
/// 1  var pagescriptCall = function (key, request, scripts, api) { "use strict"; var entry = window["pagescript_…"]; … };
/// 2  return pagescriptCall("…key…", arguments, [function (console, alert, confirm, prompt) { return function () {
/// 3  …the user's code…
/// n  }; }]);
///    //# sourceURL=pagescript-script.js
/// ```
///
/// The first line's function is the only code of the body that touches anything of the page's
/// (the entry, `performance`), and it is strict: a function or getter of the page's it calls
/// finds `null` as its `caller`, so the page cannot read the body's text (the key, a request
/// written into it, the scripts) or its arguments. It asks the entry for the response to the
/// entry's challenge and calls it with the key only when the answer is right
/// (``RuntimeEntry``); otherwise it returns ``impostor`` with the document's start, and without a
/// function there ``notInstalled``.
///
/// Only data travels as the call's argument (the request). The driver puts the body inside a
/// function of its own, a line or two further down; the runtime measures that offset once per
/// document and reports it with every reply.
struct ScriptBody: Sendable {
    /// Where one script's code starts in the body, and how many lines it has.
    struct Placement: Sendable, Equatable {
        let firstLine: Int
        let lineCount: Int

        var lastLine: Int { firstLine + lineCount - 1 }

        /// The 1-based line in the script for a body line, when the line is the script's.
        func scriptLine(forBodyLine line: Int) -> Int? {
            line >= firstLine && line <= lastLine ? line - firstLine + 1 : nil
        }
    }

    /// The body's text.
    let text: String
    /// One placement per script, in order.
    let placements: [Placement]

    /// The name V8 gives the frames of a run's body (JavaScriptCore ignores it).
    static let sourceName = "pagescript-script.js"
    /// The name of the installation body.
    static let runtimeSourceName = "pagescript-runtime.js"
    /// What the body returns when the runtime is not installed in the page's current document,
    /// followed by a space and the document's `performance.timeOrigin` (when its navigation
    /// started, in milliseconds since 1970).
    static let notInstalled = "pagescript:not-installed"
    /// What the body returns when the function under the entry's name did not answer the entry's
    /// challenge (the page put it there), followed by a space and the document's
    /// `performance.timeOrigin`. Nothing else was passed to it.
    static let impostor = "pagescript:impostor"

    /// The body that runs `scripts` through the runtime at `entry`.
    ///
    /// With `addingUserscriptAPI`, the body first defines the GM API's page half (`GM.js`) and
    /// hands it to the runtime with the call, for a runtime installed without it (see
    /// ``install(entry:userscriptAPI:)``); the placements count its lines.
    static func run(_ scripts: [PreparedScript], entry: RuntimeEntry, addingUserscriptAPI: Bool = false) throws(InjectionError) -> ScriptBody {
        let prefix = addingUserscriptAPI ? try userscriptAPIPrefix() : (text: "", lineCount: 0)
        var text = prefix.text + entryLine(entry) + "\n" + callPrefix(entry) + ", ["
        var placements: [Placement] = []
        var line = prefix.lineCount + 2
        for (index, script) in scripts.enumerated() {
            if index > 0 {
                text += "}; }, "
            }
            // The code always ends with a line break, so the closing text starts a line of its own
            // and a `//` comment on the code's last line cannot swallow it. @require files come
            // first, in the same scope, each on lines of its own.
            text += header(for: script) + "\n" + script.prelude + script.code
            let preludeLines = JavaScriptLines.count(in: script.prelude) - 1
            let lineCount = JavaScriptLines.count(in: script.code) - 1
            placements.append(Placement(firstLine: line + 1 + preludeLines, lineCount: lineCount))
            line += preludeLines + lineCount + 1
        }
        text += "}; }]" + (addingUserscriptAPI ? ", " + userscriptAPIName : "") + ");\n//# sourceURL=" + sourceName
        return ScriptBody(text: text, placements: placements)
    }

    /// The body of a call that asks the runtime something without running a script (a run's reply
    /// again, the page's context).
    static func call(entry: RuntimeEntry) -> String {
        entryLine(entry) + "\n" + callPrefix(entry) + ");"
    }

    /// The body that installs Action.js under `entry` and answers the request in its argument. Its
    /// first line makes an error whose position tells the runtime where the driver puts a body's
    /// first line.
    ///
    /// With `userscriptAPI`, the GM API's page half (`GM.js`, a large part of the body) is installed
    /// too; without it, the first run that needs it brings it
    /// (``run(_:entry:addingUserscriptAPI:)``). Installations the browser makes as a document
    /// starts (Chromium) carry it, since they cost no call; those PageScript sends after a load
    /// (WebKit) leave it out.
    static func install(entry: RuntimeEntry, userscriptAPI: Bool) throws(InjectionError) -> String {
        try installationPrefix(userscriptAPI: userscriptAPI).text + installationCall(entry: entry, request: "arguments", userscriptAPI: userscriptAPI)
            + "\n//# sourceURL=" + runtimeSourceName
    }

    /// The body that installs Action.js under `entry` and then runs `scripts` through it, in one
    /// call: a document-start script, or the first run in a document just navigated to. The
    /// installation answers a context request of its own, which is dropped; the body returns the
    /// run's reply. The scripts' placements count the installation's lines.
    /// The GM API's page half is installed only when one of the scripts is a userscript.
    static func installingAndRunning(_ scripts: [PreparedScript], entry: RuntimeEntry) throws(InjectionError) -> ScriptBody {
        let userscriptAPI = scripts.contains { $0.userScript != nil }
        let prefix = try installationPrefix(userscriptAPI: userscriptAPI)
        let installation = prefix.text + installationCall(entry: entry, request: "[" + contextRequestLiteral + "]", userscriptAPI: userscriptAPI) + "\n"
        let run = try run(scripts, entry: entry)
        // The prefix's lines, then the line that installs.
        let offset = prefix.lineCount + 1
        return ScriptBody(text: installation + run.text, placements: run.placements.map {
            Placement(firstLine: $0.firstLine + offset, lineCount: $0.lineCount)
        })
    }

    /// The installation's first line (the calibration), Action.js and, with `userscriptAPI`, the
    /// GM API's page half, ending with a line break: the same for every page, so built (and its
    /// line breaks counted) once.
    private static func installationPrefix(userscriptAPI: Bool) throws(InjectionError) -> (text: String, lineCount: Int) {
        try (userscriptAPI ? cachedInstallationPrefixWithAPI : cachedInstallationPrefix).get()
    }

    /// An error made on the body's first line, in strict-mode code: V8 hands an error's frames to
    /// the page's `Error.prepareStackTrace` when the runtime reads the stack, with the function of
    /// every frame above the first strict one, and the body's function holds its whole text.
    private static let calibrationLine = "var pagescriptCalibration = (function () { \"use strict\"; try { null.pagescript; } catch (error) { return error; } })();\n"

    private static let cachedInstallationPrefix = counted { () throws(InjectionError) in
        calibrationLine + (try ActionScript.compactSource()) + "\n"
    }

    private static let cachedInstallationPrefixWithAPI = counted { () throws(InjectionError) in
        calibrationLine + (try ActionScript.compactSource()) + "\n" + (try ActionScript.userscriptAPISource()) + "\n"
    }

    /// `GM.js` alone, for a run that brings it to a runtime installed without it.
    private static func userscriptAPIPrefix() throws(InjectionError) -> (text: String, lineCount: Int) {
        try cachedUserscriptAPIPrefix.get()
    }

    private static let cachedUserscriptAPIPrefix = counted { () throws(InjectionError) in
        (try ActionScript.userscriptAPISource()) + "\n"
    }

    /// A text that ends with a line break, with the number of lines before its end.
    private static func counted(
        _ make: () throws(InjectionError) -> String
    ) -> Result<(text: String, lineCount: Int), InjectionError> {
        Result { () throws(InjectionError) -> (text: String, lineCount: Int) in
            let text = try make()
            return (text, JavaScriptLines.count(in: text) - 1)
        }
    }

    /// The name `GM.js` defines.
    private static let userscriptAPIName = "PageScriptGM"

    private static let contextRequestLiteral = JSONValue.string(RuntimeRequest.context.serialized).serialized

    private static func installationCall(entry: RuntimeEntry, request: String, userscriptAPI: Bool) -> String {
        (request == "arguments" ? "return " : "")
            + "ExtensionPreprocessingJS.install(pagescriptCalibration, \(entry.nameLiteral), \(entry.challengeLiteral), "
            + "\(entry.responseLiteral), \(entry.keyLiteral), \(request), "
            + (userscriptAPI ? userscriptAPIName : "null") + ");"
    }

    /// `body` (made for `entry`) with `request` written into it instead of passed as the call's
    /// argument: a JSON string literal where the body reads `arguments`, right after the key. For
    /// a page whose `JSON.parse` (which WebKitWebDriver uses for arguments) cannot be trusted.
    static func embedding(_ request: JSONValue, in body: String, entry: RuntimeEntry) -> String {
        replacingFirst(entry.keyLiteral + ", arguments", in: body,
                       with: entry.keyLiteral + ", [" + JSONValue.string(request.serialized).serialized + "]")
    }

    /// `body` (made for `entry`) with the sealed part of a confidential request written into it
    /// (``RuntimeRequest/sealing(_:)``): the runtime gets the call's argument, the open part,
    /// and the sealed part as a JSON string literal after it.
    static func embedding(sealed: JSONValue, in body: String, entry: RuntimeEntry) -> String {
        replacingFirst(entry.keyLiteral + ", arguments", in: body,
                       with: entry.keyLiteral + ", [arguments[0], " + JSONValue.string(sealed.serialized).serialized + "]")
    }

    /// `text` with the first occurrence of `marker` replaced by `replacement`; `text` itself when
    /// it has none. Found among the UTF-8 bytes (``ByteSearch``): Foundation's `range(of:)` and
    /// `replacingCharacters(in:with:)` copied the whole body into UTF-16 and back on every run of
    /// a userscript, and the standard library's generic `firstRange(of:)` on the UTF-8 view took
    /// milliseconds to reach the installation call at the end of a runtime's body. The markers
    /// start with an ASCII character, so the range found is on character boundaries.
    static func replacingFirst(_ marker: String, in text: String, with replacement: String) -> String {
        guard let offset = ByteSearch.firstOffset(of: marker, in: text) else { return text }
        let lower = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        let upper = text.utf8.index(lower, offsetBy: marker.utf8.count)
        return String(text[..<lower]) + replacement + String(text[upper...])
    }

    /// The function expression a script's code follows: its parameters, then the function that
    /// holds the code (async when the code awaits at its top level). Declarations in the code
    /// shadow the parameters rather than clash with them.
    static func header(for script: PreparedScript) -> String {
        "function (\(script.parameters.joined(separator: ", "))) { return \(script.isAsync ? "async " : "")function () {"
    }

    /// A compile-only probe: the body returns before anything else, and `prefix` sits in the same
    /// place a script's code has in a run, followed by `sentinel`, text that fails to compile on
    /// its own (so that no probe can ever run) unless the prefix fails first.
    static func probe(header: String, prefix: Substring, sentinel: String) -> String {
        "return;\n[" + header + "\n" + prefix + "\n" + sentinel
    }

    /// The strict function that finds the entry, checks it and calls it: the body's first line.
    private static func entryLine(_ entry: RuntimeEntry) -> String {
        let documentStart = "(typeof performance === \"object\" && performance ? performance.timeOrigin : 0)"
        return "var pagescriptCall = function (key, request, scripts, api) { \"use strict\"; var entry = window[\(entry.nameLiteral)]; "
            + "if (typeof entry !== \"function\") { return \"\(notInstalled) \" + \(documentStart); } "
            + "return entry(\(entry.challengeLiteral)) === \(entry.responseLiteral) ? entry(key, request, scripts, api) : \"\(impostor) \" + \(documentStart); };"
    }

    /// The start of the body's second line: the call, up to the request (`arguments`).
    private static func callPrefix(_ entry: RuntimeEntry) -> String {
        "return pagescriptCall(\(entry.keyLiteral), arguments"
    }
}
