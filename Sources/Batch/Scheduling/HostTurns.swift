import Foundation

/// Whose turn it is to open a page, host by host (`--per-host`, `--delay-per-host`): how many
/// pages of each host are open, and when the next one of each may start.
///
/// A host is the address's host name, lowercased (`127.0.0.1` and `localhost` are two hosts, as
/// they are two sites to a browser); an address without one (`file:`, `data:`) is held back by
/// nothing.
///
/// ```swift
/// var turns = HostTurns(limit: 1, delay: 0)
/// turns.start("example.com", at: 0)
/// turns.wait(before: "example.com", at: 0)   // .infinity: its one page is open
/// turns.end("example.com")
/// turns.wait(before: "example.com", at: 0)   // 0
/// ```
struct HostTurns: Sendable {
    /// Pages of one host open at once, at most; `nil` for no limit.
    let limit: Int?
    /// Seconds between the starts of two pages of one host.
    let delay: Double
    private var open: [String: Int] = [:]
    private var nextStart: [String: Double] = [:]

    init(limit: Int?, delay: Double) {
        self.limit = limit
        self.delay = delay
    }

    /// Whether anything is ever held back.
    var holdsBack: Bool { limit != nil || delay > 0 }

    /// The host `address` counts against, or `nil` when it has none.
    static func host(of address: String) -> String? {
        guard let host = URLComponents(string: address)?.host, !host.isEmpty else { return nil }
        return host.lowercased()
    }

    /// Seconds until a page of `host` may start (`now` on the monotonic clock): 0 for at once,
    /// `.infinity` while the host has its limit of pages open.
    func wait(before host: String?, at now: Double) -> Double {
        guard let host else { return 0 }
        if let limit, open[host, default: 0] >= limit { return .infinity }
        return max(0, (nextStart[host] ?? now) - now)
    }

    /// A page of `host` starts at `now`.
    mutating func start(_ host: String?, at now: Double) {
        guard let host, holdsBack else { return }
        open[host, default: 0] += 1
        if delay > 0 { nextStart[host] = now + delay }
    }

    /// A page of `host` is closed.
    mutating func end(_ host: String?) {
        guard let host, let count = open[host] else { return }
        open[host] = count > 1 ? count - 1 : nil
    }
}
