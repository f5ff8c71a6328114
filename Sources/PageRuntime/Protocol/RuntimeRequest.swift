import SystemSupport

/// What a call asks the runtime in the page, sent as the Execute Script call's only argument: JSON
/// text, which the runtime parses with a `JSON.parse` the page cannot have replaced. A
/// confidential request is sent in two parts (``sealing(_:)``).
///
/// - `{"kind":"context","loadCheck"?}`: the page's URL and title (and the load checked, as for a run).
/// - `{"kind":"run","run","requiredURL"?,"deadline","dialogs"?,"promptAnswer"?,"scripts":[{"parameters"?,"ranges"}]}`:
///   run the body's scripts in order; `requiredURL`, when given, is the address the page must
///   still have; `deadline` the milliseconds after which the runtime gives up waiting for a
///   script's value and replies with what it has; `dialogs` `"accept"` (`"dismiss"` when left
///   out); each script's `parameters` are the names its function takes (the standard four,
///   ``PreparedScript/standardParameters``, when left out) and `ranges` the body lines its code covers;
///   an optional `loadCheck` (``LoadCheck``); an optional `startsAt`, `"DOMContentLoaded"` or
///   `"load"`, for a run sent at the start of a document that waits for that moment (after the
///   load event's handlers for `"load"`) before it checks the address and calls the scripts;
///   with it an optional `loadDeadline`, the milliseconds that moment must come within (else the
///   run ends `timedOut` with no script started), the scripts' `deadline` then being what is left
///   of it (at least a second); an optional `waitsFor`, the same moments, for a run sent once
///   the session saw the document reach it, which waits as `startsAt` does (within
///   `loadDeadline`) only when the document it finds has not reached it (the page's own
///   navigation replaced the one the session saw); `"unattended":true` for a run started by a source the browser
///   evaluates in a new document, which answers `{"pagescript","run","unattended":true}` at once
///   and is collected later.
/// - `{"kind":"collect","run","wait"}`: a run's reply again (after a dialog or a broken transport
///   lost it), at once or when the run finishes.
/// - `{"kind":"deliver","run","responses","wait"}`, `{"kind":"poll"}` and `{"kind":"watch","wait","leavingAt"}`:
///   responses to userscripts' requests in, the work queued after runs ended out (``deliver(id:responses:wait:)``,
///   ``poll``, ``watch(milliseconds:)``).
/// - `{"kind":"menu","run","script","name"}`: a userscript's menu command.
enum RuntimeRequest {
    static let context: JSONValue = ["kind": "context"]

    /// The page's URL and title, with the load checked as a run's `loadCheck` is (the reply's `load`).
    static func context(checking loadCheck: LoadCheck) -> JSONValue {
        ["kind": "context", "loadCheck": loadCheck.json]
    }

    ///
    /// `unattended`: the run is started by a source the browser evaluates in a new document,
    /// where no call waits for its reply; the runner collects it later (`collect`), so nothing of
    /// it (the work its scripts queue) is taken by a reply no one reads.
    static func run(id: String, requiredURL: String?, deadline: Double?, dialogs: DialogPolicy,
                    scripts: [PreparedScript], body: ScriptBody, loadCheck: LoadCheck? = nil, startsAt: String? = nil,
                    waitsFor: String? = nil, loadDeadline: Double? = nil, unattended: Bool = false) -> JSONValue {
        let entries: [JSONValue] = zip(scripts, body.placements).map { script, placement in
            var members: [(key: String, value: JSONValue)] = []
            if script.parameters != PreparedScript.standardParameters {
                members.append(("parameters", .array(script.parameters.map { .string($0) })))
            }
            members.append(("ranges", [[.integer(Int64(placement.firstLine)), .integer(Int64(placement.lastLine))]]))
            if let userScript = script.userScript { members.append(("gm", userScript.requestData)) }
            if let input = script.input { members.append(("input", input)) }
            return .object(members)
        }
        var request: [(key: String, value: JSONValue)] = [("kind", "run"), ("run", .string(id))]
        if let requiredURL { request.append(("requiredURL", .string(requiredURL))) }
        request.append(("deadline", deadline.map { .integer(Int64(($0 * 1000).rounded())) } ?? .null))
        if dialogs.accepts { request.append(("dialogs", "accept")) }
        if let answer = dialogs.promptAnswer { request.append(("promptAnswer", .string(answer))) }
        request.append(("scripts", .array(entries)))
        if let loadCheck { request.append(("loadCheck", loadCheck.json)) }
        if let startsAt { request.append(("startsAt", .string(startsAt))) }
        if let waitsFor { request.append(("waitsFor", .string(waitsFor))) }
        if let loadDeadline { request.append(("loadDeadline", .integer(Int64((loadDeadline * 1000).rounded())))) }
        if unattended { request.append(("unattended", true)) }
        return .object(request)
    }

    /// What a run sent with the installation, right after a navigation, checks before its scripts
    /// start: the runtime skips them on the browser's error page (the document is not the
    /// `requested` address's), and, when `skipsHTTPErrors`, on a page the server answered with a
    /// status of 400 or more. The reply's `load` says the status and what was skipped.
    ///
    /// `previousOrigin` is the `performance.timeOrigin` of the document the navigation started
    /// from, as an earlier reply's `load` gave it: a document that still has it, at an address
    /// other than `requested` (fragments aside), is that document still (the address was a
    /// download, or answered 204), and the runtime skips the scripts (`no-new-document`). It is
    /// the page's own clock on both sides, so the check holds on a remote endpoint too.
    struct LoadCheck: Sendable {
        let requested: String
        let skipsHTTPErrors: Bool
        var previousOrigin: JSONValue?
        /// Whether the document the navigation made is known to have been replaced by another
        /// (a run sent into it was lost with it): the document now there came from a page, not
        /// from a server's redirect, so one that cannot name the requested page as where it came
        /// from (no referrer) is another page's.
        var documentReplaced = false
        /// The HTTP status of the document the browser shows, at its address, where the browser
        /// says so outside the page (WebKit's inspector) and the page cannot (no
        /// `responseStatus`): the page takes it when it is at that address.
        var knownStatus: (url: String, status: Int)?

        var json: JSONValue {
            var check: [(key: String, value: JSONValue)] = [("requested", .string(requested)), ("skipsHTTPErrors", .bool(skipsHTTPErrors))]
            if let previousOrigin { check.append(("previousOrigin", previousOrigin)) }
            if documentReplaced { check.append(("replaced", .bool(true))) }
            if let knownStatus { check.append(("status", ["url": .string(knownStatus.url), "code": .integer(Int64(knownStatus.status))])) }
            return .object(check)
        }
    }

    /// Responses to `GM_xmlhttpRequest` calls (`{"request": n, "response": {...}}`) for the page
    /// half, then the run's next reply (`wait`) or the work queued after runs ended.
    /// `lateOf`: a run that has ended whose callbacks the responses call; the reply then carries
    /// what its scripts logged and asked since they last reported (`lateOutput`).
    /// `thenWatching`: a ``watch(milliseconds:leavingAt:)`` request that follows the delivery in
    /// the same call, so that no moment passes without a watch between the two (a page that
    /// leaves right after a response reached it is seen leaving).
    static func deliver(id: String?, responses: [JSONValue], wait: Bool, lateOf ended: String? = nil,
                        thenWatching watch: JSONValue? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("kind", "deliver"), ("run", id.map(JSONValue.string) ?? .null), ("responses", .array(responses)), ("wait", .bool(wait)),
        ]
        if let ended { members.append((key: "lateOf", value: .string(ended))) }
        if let milliseconds = watch?["wait"], let leavingEvent = watch?["leavingAt"] {
            members += [(key: "watch", value: milliseconds), (key: "leavingAt", value: leavingEvent)]
        }
        return .object(members)
    }

    /// The work the page's userscripts queued after their runs ended.
    static let poll: JSONValue = ["kind": "poll"]

    /// The work the page's userscripts queued after their runs ended, once some of it waits for
    /// the runner (a request), the page is being left (the reply's `leaving`: at `leavingAt`,
    /// `"pagehide"`, or else at `beforeunload` or `pagehide`, whichever comes first) or its
    /// address changes, or after `milliseconds`.
    static func watch(milliseconds: Int, leavingAt leavingEvent: String) -> JSONValue {
        ["kind": "watch", "wait": .integer(Int64(milliseconds)), "leavingAt": .string(leavingEvent)]
    }

    /// Runs the menu command `name` that script `script` of run `id` registered.
    static func menu(id: String, script: Int, name: String) -> JSONValue {
        ["kind": "menu", "run": .string(id), "script": .integer(Int64(script)), "name": .string(name)]
    }

    /// The members of a request that say only which run it is about and how to wait for it: what
    /// a confidential request sends as the call's argument (``sealing(_:)``).
    static let openMembers: Set<String> = ["run", "deadline", "dialogs", "wait"]

    /// A confidential request in two parts: `open`, the ``openMembers`` (and the kind), sent as the
    /// call's argument, and `sealed`, the rest (a userscript's values, files, responses, the
    /// address the page must have), written into the body. The sealed part is then the same from
    /// one run of a script to the next, so the engine compiles the body once, not on every run;
    /// the runtime takes from the argument only the open members, so a page that rewrote the
    /// argument cannot add to what was sealed.
    static func sealing(_ request: JSONValue) -> (open: JSONValue, sealed: JSONValue) {
        guard case let .object(members) = request else { return (request, request) }
        let open = members.filter { $0.key == "kind" || openMembers.contains($0.key) }
        return (.object(open), .object(members.filter { !openMembers.contains($0.key) }))
    }

    static func collect(id: String, wait: Bool) -> JSONValue {
        ["kind": "collect", "run": .string(id), "wait": .bool(wait)]
    }
}
