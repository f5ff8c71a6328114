import Foundation

/// Turns what the user typed as a page address into a URL a browser can open.
public enum PageAddress {
    /// The schemes PageScript opens.
    public static let allowedSchemes: Set<String> = ["http", "https", "file"]

    /// Resolves `text`: an absolute http, https or file URL, `about:blank` and a `data:` URL are
    /// kept; a path to an existing local file becomes a `file://` URL; anything else is refused
    /// with the reason.
    ///
    /// - Parameters:
    ///   - text: The address as typed.
    ///   - currentDirectory: The directory relative paths are resolved against.
    public static func resolve(_ text: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws(InjectionError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidURL(text, reason: "it is empty") }
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidURL(text, reason: "it contains control characters")
        }
        if let schemeEnd = trimmed.firstIndex(of: ":"), trimmed[..<schemeEnd].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
           trimmed[..<schemeEnd].count > 1 {
            let scheme = trimmed[..<schemeEnd].lowercased()
            // Pages without a server: the empty page and a page written into its own address.
            if scheme == "about" {
                guard trimmed.lowercased() == "about:blank" else {
                    throw .invalidURL(text, reason: "of the browser's own pages only about:blank opens; the others are the browser's, not a web page's")
                }
                return "about:blank"
            }
            if scheme == "data" {
                guard trimmed.contains(",") else { throw .invalidURL(text, reason: "a data: URL holds its page after a comma (data:text/html,<p>Hi)") }
                return trimmed
            }
            guard allowedSchemes.contains(scheme) else {
                if looksLikeHostAndPort(trimmed) {
                    throw .invalidURL(text, reason: "it has no scheme; did you mean http://\(trimmed)?")
                }
                throw .invalidURL(text, reason: "the scheme '\(scheme)' is not supported (use http, https or file)")
            }
            guard let url = URL(string: trimmed), url.scheme != nil else {
                throw .invalidURL(text, reason: "it does not parse as a URL")
            }
            if scheme != "file" {
                guard let host = url.host, !host.isEmpty else { throw .invalidURL(text, reason: "it has no host") }
            }
            return trimmed
        }
        let path = trimmed.hasPrefix("/") ? trimmed : currentDirectory + "/" + trimmed
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            if isDirectory.boolValue {
                throw .invalidURL(text, reason: "it is a folder; give a page inside it")
            }
            if looksLikeHost(trimmed) {
                throw .invalidURL(text, reason: "it has no scheme and is no file here; did you mean https://\(trimmed)?")
            }
            throw .invalidURL(text, reason: "it is neither an http, https or file URL nor a file that exists")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// `127.0.0.1:8765/x` or `localhost:3000`: a host, a colon and a port, which a URL parser
    /// reads as a scheme.
    private static func looksLikeHostAndPort(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let port = text[text.index(after: colon)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !port.isEmpty && port.allSatisfy { $0.isASCII && $0.isNumber } && looksLikeHost(String(text[..<colon]))
    }

    /// `example.com/page` or `localhost`: what a user types for a web address without a scheme.
    private static func looksLikeHost(_ text: String) -> Bool {
        let host = text.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return false }
        return host == "localhost" || (host.contains(".") && !host.hasPrefix(".") && !host.hasSuffix("."))
    }
}
