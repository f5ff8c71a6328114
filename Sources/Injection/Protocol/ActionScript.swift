import Foundation

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

    private static let cachedSource: Result<String, InjectionError> = {
        let bundleName = "PageScript_Injection.resources"
        var candidates: [URL] = []
        let executableDirectory = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
            .resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
        candidates.append(executableDirectory.appendingPathComponent(bundleName))
        candidates.append(executableDirectory.deletingLastPathComponent().appendingPathComponent(bundleName))
        #if os(macOS) || os(iOS)
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("PageScript_Injection.bundle"))
        candidates.append(Bundle.main.resourceURL?.appendingPathComponent("PageScript_Injection.bundle") ?? Bundle.main.bundleURL)
        #endif
        for directory in candidates {
            let file = directory.appendingPathComponent(fileName)
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                return .success(text)
            }
        }
        return .failure(.resourceMissing(name: fileName, searched: candidates.map(\.path)))
    }()
}
