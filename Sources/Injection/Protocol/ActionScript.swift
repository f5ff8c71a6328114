import Foundation
import UserScripts

/// The `Action.js` file: the page side of PageScript, the same file the iOS Action Extension
/// ships as its `NSExtensionJavaScriptPreprocessingFile`.
public enum ActionScript {
    /// The file's name in the module's resources.
    public static let fileName = "Action.js"

    /// The source text of `Action.js`, read once from the module's resource bundle.
    public static func source() throws(InjectionError) -> String {
        switch cachedSource {
        case let .success(text): return text
        case let .failure(error): throw error
        }
    }

    /// Action.js as sent to a page: the same code without whole-line comments and indentation, a
    /// third fewer bytes to send and parse. Safe for Action.js, whose strings and regular
    /// expressions never span lines or start a line with `//`.
    static func compactSource() throws(InjectionError) -> String {
        switch cachedCompactSource {
        case let .success(text): return text
        case let .failure(error): throw error
        }
    }

    static func compact(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
            .joined(separator: "\n")
    }

    /// The page half of the userscript API (`GM.js`), compacted like Action.js. The runner sends
    /// it after Action.js in the installation body; the Action Extension does not ship it.
    static func userscriptAPISource() throws(InjectionError) -> String {
        switch cachedUserscriptAPISource {
        case let .success(text): return text
        case let .failure(error): throw error
        }
    }

    /// The name of the file that holds the page half of the userscript API.
    static let userscriptAPIFileName = "GM.js"

    private static func resource(named name: String) -> Result<String, InjectionError> {
        // The target's sources folder: this file is in Sources/Injection/Protocol/.
        let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let (folder, searched) = ResourceBundleLocator.locate(folder: "Resources", target: "Injection", sourceDirectory: sourceDirectory)
        guard let folder, let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else {
            return .failure(.resourceMissing(name: name, searched: searched))
        }
        return .success(text)
    }

    private static let cachedSource: Result<String, InjectionError> = resource(named: fileName)

    private static let cachedCompactSource: Result<String, InjectionError> = cachedSource.map(compact)

    private static let cachedUserscriptAPISource: Result<String, InjectionError> = resource(named: userscriptAPIFileName).map(compact)
}
