/// Why a page did not load, in words, from what the driver or the browser's error page says.
///
/// Chromium's driver fails the navigation with a network error code (`net::ERR_CONNECTION_REFUSED`),
/// or, for a missing file, shows `chrome-error://chromewebdata/` with the code in its text;
/// WebKit's driver reports success and leaves `about:blank` with the reason as the page's text
/// ("Could not connect to 127.0.0.1: Connection refused").; geckodriver fails it with the address of
/// Firefox's error page, whose `e` parameter names the cause (`Reached error page:
/// about:neterror?e=connectionFailure&u=...`), and Firefox's WebDriver BiDi navigation with its
/// network error (`Error: NS_ERROR_CONNECTION_REFUSED`).
enum LoadFailure {
    /// Why a navigation that left the browser on the page it had did not load.
    static let noNewDocument = "the browser opened no page there (a download, or a response without content)"

    /// Why a navigation the browser made a download of did not load (never asked for again).
    static let download = noNewDocument + " (download)"

    /// The reason from a driver's failed navigation.
    static func reason(driverMessage: String) -> String {
        var message = SyntaxErrorLocator.engineMessage(driverMessage)
        for prefix in ["unknown error: ", "insecure certificate: ", "invalid argument: "] where message.hasPrefix(prefix) {
            message = String(message.dropFirst(prefix.count))
        }
        if let code = firefoxErrorCode(in: message) {
            return firefoxExplanation(of: code).map { "\($0) (\(code))" } ?? "the browser showed its error page (\(code))"
        }
        guard let code = networkCode(in: message) else { return message }
        return explanation(of: code).map { "\($0) (\(code))" } ?? message
    }

    /// The reason from a navigation through WebDriver BiDi that failed with the browser's
    /// `message` (`Error: NS_ERROR_CONNECTION_REFUSED`), the window then at `shownURL`: the code of
    /// Firefox's error page, as geckodriver's Navigate To reports it, read from the window's
    /// address where it shows the page already, and from the browser's error code otherwise
    /// (`NS_ERROR_UNKNOWN_HOST` is `dnsNotFound`'s).
    static func reason(bidiMessage message: String, shownURL: String?) -> String {
        if let shownURL, firefoxErrorCode(in: shownURL) != nil { return reason(driverMessage: shownURL) }
        let error = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        let code = firefoxErrorPageCode(of: error) ?? error
        if let explanation = firefoxExplanation(of: code) { return "\(explanation) (\(code))" }
        return reason(driverMessage: error)
    }

    /// The code of the error page Firefox shows for its network `error`
    /// (`NS_ERROR_CONNECTION_REFUSED`: `connectionFailure`).
    private static func firefoxErrorPageCode(of error: String) -> String? {
        if error.contains("NS_ERROR_MODULE_SECURITY") {
            return error.contains("CERT") || error.contains("SEC_ERROR_") ? "nssBadCert" : "nssFailure2"
        }
        switch error {
        case "NS_ERROR_CONNECTION_REFUSED": return "connectionFailure"
        case "NS_ERROR_UNKNOWN_HOST": return "dnsNotFound"
        case "NS_ERROR_FILE_NOT_FOUND": return "fileNotFound"
        case "NS_ERROR_FILE_ACCESS_DENIED": return "fileAccessDenied"
        case "NS_ERROR_NET_TIMEOUT": return "netTimeout"
        case "NS_ERROR_NET_RESET": return "netReset"
        case "NS_ERROR_NET_INTERRUPT": return "netInterrupt"
        case "NS_ERROR_PORT_ACCESS_NOT_ALLOWED": return "deniedPortAccess"
        case "NS_ERROR_OFFLINE": return "netOffline"
        case "NS_ERROR_PROXY_CONNECTION_REFUSED": return "proxyConnectFailure"
        case "NS_ERROR_UNKNOWN_PROXY_HOST": return "proxyResolveFailure"
        case "NS_ERROR_REDIRECT_LOOP": return "redirectLoop"
        case "NS_ERROR_UNKNOWN_PROTOCOL": return "unknownProtocolFound"
        default: return nil
        }
    }

    /// The reason when the document the browser shows is an error page instead of `requested`;
    /// `nil` when the page loaded.
    static func reason(requested: String, documentURL: String, pageText: String?) -> String? {
        if let code = firefoxErrorCode(in: documentURL) {
            return firefoxExplanation(of: code).map { "\($0) (\(code))" } ?? "the browser showed its error page (\(code))"
        }
        if documentURL.hasPrefix("chrome-error:") {
            let text = pageText ?? ""
            if let code = networkCode(in: text) {
                return explanation(of: code).map { "\($0) (\(code))" } ?? code
            }
            return firstLine(of: text) ?? "the browser showed its error page"
        }
        if documentURL == "about:blank", !requested.hasPrefix("about:") {
            return firstLine(of: pageText ?? "") ?? "the browser showed a blank page instead"
        }
        return nil
    }

    /// Whether the browser shows its error page rather than `requested`.
    static func isErrorPage(requested: String, documentURL: String) -> Bool {
        documentURL.hasPrefix("chrome-error:") || firefoxErrorCode(in: documentURL) != nil
            || (documentURL == "about:blank" && !requested.hasPrefix("about:"))
    }

    private static func firstLine(of text: String) -> String? {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }

    private static func networkCode(in text: String) -> String? {
        guard let start = text.range(of: "ERR_") else { return nil }
        let code = text[start.lowerBound...].prefix { $0.isUppercase || $0 == "_" || $0.isNumber }
        let prefixed = text[..<start.lowerBound].hasSuffix("net::")
        return (prefixed ? "net::" : "") + code
    }

    /// The `e` parameter of a Firefox error page's address (`about:neterror?e=dnsNotFound&...`,
    /// `about:certerror?e=nssBadCert&...`) in `text`.
    private static func firefoxErrorCode(in text: String) -> String? {
        guard let page = ["about:neterror?", "about:certerror?"].lazy.compactMap({ text.range(of: $0) }).first else { return nil }
        let query = text[page.upperBound...].prefix { !$0.isWhitespace }
        guard let parameter = query.split(separator: "&").first(where: { $0.hasPrefix("e=") }) else { return nil }
        let code = parameter.dropFirst(2)
        return code.isEmpty ? nil : String(code)
    }

    private static func firefoxExplanation(of code: String) -> String? {
        switch code {
        case "connectionFailure": return "connection refused"
        case "dnsNotFound": return "the host name could not be resolved"
        case "fileNotFound", "fileAccessDenied": return code == "fileNotFound" ? "no such file" : "permission denied"
        case "netTimeout": return "the connection timed out"
        case "netReset", "netInterrupt": return "the server closed the connection"
        case "deniedPortAccess": return "the browser does not connect to this port"
        case "nssFailure2": return "the TLS handshake failed"
        case "nssBadCert": return "the server's certificate is not trusted"
        case "netOffline": return "the browser is offline"
        case "proxyConnectFailure", "proxyResolveFailure": return "the proxy could not be reached"
        case "redirectLoop": return "the server redirects in a loop"
        case "unknownProtocolFound": return "the browser does not know this address's scheme"
        default: return nil
        }
    }

    private static func explanation(of code: String) -> String? {
        let bare = code.hasPrefix("net::") ? String(code.dropFirst(5)) : code
        switch bare {
        case "ERR_CONNECTION_REFUSED": return "connection refused"
        case "ERR_ABORTED": return noNewDocument
        case "ERR_NAME_NOT_RESOLVED": return "the host name could not be resolved"
        case "ERR_NAME_RESOLUTION_FAILED": return "the host name could not be resolved (the resolver failed)"
        case "ERR_CONNECTION_TIMED_OUT", "ERR_TIMED_OUT": return "the connection timed out"
        case "ERR_ADDRESS_UNREACHABLE": return "the address is unreachable"
        case "ERR_EMPTY_RESPONSE": return "the server sent nothing"
        case "ERR_CONNECTION_RESET", "ERR_CONNECTION_CLOSED": return "the server closed the connection"
        case "ERR_FILE_NOT_FOUND": return "no such file"
        case "ERR_UNSAFE_PORT": return "the browser does not connect to this port"
        case "ERR_ACCESS_DENIED": return "permission denied"
        case "ERR_SSL_PROTOCOL_ERROR", "ERR_SSL_VERSION_OR_CIPHER_MISMATCH": return "the TLS handshake failed"
        default: return bare.hasPrefix("ERR_CERT_") ? "the server's certificate is not trusted" : nil
        }
    }
}
