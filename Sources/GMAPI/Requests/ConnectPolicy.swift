import UserScripts

/// Where one script's `GM_xmlhttpRequest` may go: its `@connect` lines, read once.
///
/// A request is checked on its first URL, on every redirect hop and on its final URL (see
/// ``GMRequestPerformer``); a host no rule allows is refused with
/// ``GMRequestFailure/forbiddenHost(url:host:addLine:)``, which names the line to add. The page's
/// own host needs no line, as in Tampermonkey (a Greasemonkey 4 script has none); any other host
/// needs one, or the user's consent: `browse` asks, as Tampermonkey does
/// (``GMRequestPerformer/perform(_:policy:pageURL:asking:)``), and `run` and `batch` refuse and say
/// what to add, unless `--connect` allows the host for the run (``adding(_:)``). Values that name
/// no host are kept in ``ignored`` for the run's report.
///
/// ```swift
/// let policy = ConnectPolicy(script: stored.script)
/// try policy.check(try PageURL("https://api.example.com/v1"), pageURL: page)
/// ```
public struct ConnectPolicy: Sendable, Hashable {
    /// The usable rules, in file order.
    public let rules: [ConnectRule]
    /// The `@connect` values that name no host, each with the reason.
    public let ignored: [ConnectRuleError]

    /// The policy of a script's `@connect` lines.
    public init(script: UserScript) {
        self.init(values: script.values(for: "connect"))
    }

    /// The policy of these `@connect` values.
    public init(values: [String]) {
        var rules: [ConnectRule] = []
        var ignored: [ConnectRuleError] = []
        for value in values {
            do {
                let rule = try ConnectRule(value)
                if !rules.contains(rule) { rules.append(rule) }
            } catch {
                ignored.append(error)
            }
        }
        self.rules = rules
        self.ignored = ignored
    }

    /// The policy with more rules, as `@connect` values (`--connect HOST` on the command line,
    /// `*` for every host); values that name no host are ignored.
    public func adding(_ values: [String]) -> ConnectPolicy {
        guard !values.isEmpty else { return self }
        let extra = ConnectPolicy(values: values)
        return ConnectPolicy(rules: rules + extra.rules.filter { !rules.contains($0) }, ignored: ignored)
    }

    private init(rules: [ConnectRule], ignored: [ConnectRuleError]) {
        self.rules = rules
        self.ignored = ignored
    }

    /// Whether a request may go to `url` from a page at `pageURL`: the page's own host always.
    public func allows(_ url: PageURL, pageURL: PageURL?) -> Bool {
        ConnectRule.pageHost.allows(url.host, pageHost: pageURL?.host) || rules.contains { $0.allows(url.host, pageHost: pageURL?.host) }
    }

    /// Throws ``GMRequestFailure/forbiddenHost(url:host:addLine:)`` unless a rule allows `url`.
    public func check(_ url: PageURL, pageURL: PageURL?) throws(GMRequestFailure) {
        guard allows(url, pageURL: pageURL) else {
            throw .forbiddenHost(url: url.description, host: url.host.description, addLine: Self.lineToAdd(for: url.host, pageURL: pageURL))
        }
    }

    /// The `@connect` line that would allow `host` (never the page's own, which needs none).
    static func lineToAdd(for host: URLHost, pageURL: PageURL?) -> String {
        "// @connect \(host.connectText)"
    }
}
