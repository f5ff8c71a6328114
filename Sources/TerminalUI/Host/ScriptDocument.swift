/// Which script the editor has on screen: the site's own script, a named one, or a file of the
/// user's own, and where it runs. Ctrl-S saves the text into exactly this script, and the title bar names it.
///
/// The host hands one out with every script it loads or creates; the editor gives it back with
/// each save, so the host knows which file to write (and what it looked like when it was read).
///
/// ```swift
/// let site = ScriptDocument.siteScript(for: "example.com", id: nil, matchPatterns: ["*://example.com/*"])
/// let named = ScriptDocument(id: "k3j9x2pq", name: "Word count", role: .named,
///                            matchPatterns: ["https://*/*"], runAt: "document-idle")
/// ```
public struct ScriptDocument: Hashable, Sendable {
    /// What the script is to the page.
    public enum Role: Hashable, Sendable {
        /// The script kept for one site, which the editor opens there; the associated value is
        /// the site as people write it (`example.com`, `localhost:3000`).
        case site(String)
        /// A script with a name of its own.
        case named
        /// A file of the user's own outside the library, at this path, shown whole (its
        /// metadata block too).
        case file(String)
    }

    /// The script's ID in the library; `nil` for a site script that is not saved yet.
    public var id: String?
    /// The script's name.
    public var name: String
    /// Whether it is the site's script or a named one.
    public var role: Role
    /// The `@match` patterns of the pages it runs on.
    public var matchPatterns: [String]
    /// The `@exclude-match` patterns of pages it must not run on.
    public var excludePatterns: [String]
    /// When it runs by itself (`document-idle`, ...), or `nil` when it runs only on demand.
    public var runAt: String?

    /// Creates a document description.
    public init(id: String?, name: String, role: Role, matchPatterns: [String] = [], excludePatterns: [String] = [],
                runAt: String? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.matchPatterns = matchPatterns
        self.excludePatterns = excludePatterns
        self.runAt = runAt
    }

    /// The script of `site`, as the editor starts with it when the site has none yet.
    public static func siteScript(for site: String, id: String? = nil, matchPatterns: [String] = []) -> ScriptDocument {
        ScriptDocument(id: id, name: site, role: .site(site), matchPatterns: matchPatterns)
    }

    /// How the title bar names it: `Site script for example.com` or `Script “Word count”`.
    public var title: String {
        switch role {
        case .site(let site): "Site script for \(site)"
        case .named: "Script “\(name)”"
        case .file: "File \(name)"
        }
    }
}
