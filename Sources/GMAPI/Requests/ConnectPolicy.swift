import UserScripts

/// Where one script's `GM_xmlhttpRequest` may go: its `@connect` lines, read once.
///
/// A request is checked on its first URL, on every redirect hop and on its final URL (see
/// ``GMRequestPerformer``); a host no rule allows is refused with
/// ``GMRequestFailure/forbiddenHost(url:host:addLine:)``, which names the line to add. A script
/// without `@connect` lines may reach no host: PageScript cannot ask the user, as Tampermonkey
/// does, so it refuses and says what to add. Values that name no host are kept in ``ignored``
/// for the run's report.
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

    /// Whether a request may go to `url` from a page at `pageURL`.
    public func allows(_ url: PageURL, pageURL: PageURL?) -> Bool {
        rules.contains { $0.allows(url.host, pageHost: pageURL?.host) }
    }

    /// Throws ``GMRequestFailure/forbiddenHost(url:host:addLine:)`` unless a rule allows `url`.
    public func check(_ url: PageURL, pageURL: PageURL?) throws(GMRequestFailure) {
        guard allows(url, pageURL: pageURL) else {
            throw .forbiddenHost(url: url.description, host: url.host.description, addLine: Self.lineToAdd(for: url.host, pageURL: pageURL))
        }
    }

    /// The `@connect` line that would allow `host`: the host itself, or `self` for the page's own.
    static func lineToAdd(for host: URLHost, pageURL: PageURL?) -> String {
        if let pageURL, pageURL.host == host { return "// @connect self" }
        return "// @connect \(host.connectText)"
    }
}
