import UserScripts

extension URLHost {
    /// Whether the host is this machine: `localhost` and names under it, `127.0.0.0/8`, `::1`, and
    /// IPv4-mapped loopback addresses (`@connect localhost`; also which DevTools addresses
    /// PageScript reaches directly).
    public var isLoopback: Bool {
        switch self {
        case .domain(let name):
            return name == "localhost" || name.hasSuffix(".localhost")
        case .ipv4(let address):
            return address.value >> 24 == 127
        case .ipv6(let address):
            let pieces = address.pieces
            guard pieces.count == 8 else { return false }
            if pieces == [0, 0, 0, 0, 0, 0, 0, 1] { return true }
            return pieces[0..<5].allSatisfy { $0 == 0 } && pieces[5] == 0xFFFF && pieces[6] >> 8 == 127
        case .empty:
            return false
        }
    }

    /// The host as a `@connect` value: IPv6 without brackets.
    var connectText: String {
        if case .ipv6(let address) = self { return address.description }
        return description
    }
}
