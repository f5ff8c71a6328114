import Foundation

/// Turns what the user typed as a page address into a URL a browser can open.
public enum PageAddress {
    /// The schemes PageScript opens.
    public static let allowedSchemes: Set<String> = ["http", "https", "file"]

    /// Resolves `text`: an absolute http, https or file URL is kept; a path to an existing local
    /// file becomes a `file://` URL; anything else is refused with the reason.
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
            guard allowedSchemes.contains(scheme) else {
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
            throw .invalidURL(text, reason: "it is neither an http, https or file URL nor a file that exists")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }
}
