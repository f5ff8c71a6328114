import UserScripts

/// One `@require` or `@resource` line of a script: a file PageScript fetches when the script is
/// imported, saved or updated, never when a page loads.
///
/// ```swift
/// for dependency in ScriptDependency.declared(in: script) {
///     print(dependency.kind, dependency.declaredURL)   // require https://code.jquery.com/jquery-3.7.1.min.js#sha256=...
/// }
/// ```
public struct ScriptDependency: Sendable, Hashable, CustomStringConvertible {
    /// What the script does with the file.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// `@require URL`: runs before the script, in order, in the same scope.
        case require
        /// `@resource NAME URL`: read with `GM_getResourceText(NAME)` / `GM_getResourceURL(NAME)`.
        case resource(name: String)

        /// `require`, or `resource NAME`.
        public var description: String {
            switch self {
            case .require: "require"
            case .resource(let name): "resource \(name)"
            }
        }
    }

    /// What the script does with the file.
    public let kind: Kind
    /// The URL as written, with its integrity fragment (`...#sha256=...`); the key under which
    /// the fetched file is recorded.
    public let declaredURL: String
    /// The 1-based line of the metadata block, or `nil` when not known.
    public let line: Int?

    /// A dependency as declared.
    public init(kind: Kind, declaredURL: String, line: Int? = nil) {
        self.kind = kind
        self.declaredURL = declaredURL
        self.line = line
    }

    /// The resource's name, or `nil` for a `@require`.
    public var resourceName: String? {
        if case .resource(let name) = kind { return name }
        return nil
    }

    /// `@require URL` or `@resource NAME URL`, as in the script.
    public var description: String {
        switch kind {
        case .require: "@require \(declaredURL)"
        case .resource(let name): "@resource \(name) \(declaredURL)"
        }
    }

    /// The URL without its fragment, resolved against `base` when relative, and the integrity
    /// hashes the fragment carries.
    ///
    /// - Parameter base: `@downloadURL`, else `@updateURL`: where relative URLs are read from.
    /// - Throws: ``DependencyFailure`` when the URL cannot be read, is relative with no base, is
    ///   not http or https, or carries a malformed hash.
    public func resolved(base: String?) throws(DependencyFailure) -> (url: PageURL, integrity: [IntegrityCheck]) {
        let text = declaredURL.trimmingC0ControlsAndSpaces()
        guard !text.isEmpty else { throw .invalidURL(declaredURL, reason: "the line names no URL") }
        let hash = text.firstIndex(of: "#")
        let location = String(text[..<(hash ?? text.endIndex)])
        let fragment = hash.map { String(text[text.index(after: $0)...]) } ?? ""
        let integrity = try IntegrityCheck.parse(fragment: fragment)
        let url: PageURL
        do {
            if URLReference.schemePrefix(of: location) != nil {
                url = try PageURL(location)
            } else {
                guard let base else {
                    throw DependencyFailure.invalidURL(declaredURL, reason: "it is relative, and the script has no @downloadURL or @updateURL, nor an install address, to read it against")
                }
                url = try URLReference.resolve(location, against: try PageURL(base))
            }
        } catch let failure as DependencyFailure {
            throw failure
        } catch {
            throw .invalidURL(declaredURL, reason: "\(error)")
        }
        guard url.scheme != .file else {
            throw .invalidURL(declaredURL, reason: "PageScript fetches only http and https URLs")
        }
        return (url, integrity)
    }
}
