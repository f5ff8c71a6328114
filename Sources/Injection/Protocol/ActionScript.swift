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

    private static let cachedSource: Result<String, InjectionError> = {
        // The target's sources folder: this file is in Sources/Injection/Protocol/.
        let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let (folder, searched) = ResourceBundleLocator.locate(folder: "Resources", target: "Injection", sourceDirectory: sourceDirectory)
        guard let folder, let text = try? String(contentsOfFile: folder + "/" + fileName, encoding: .utf8) else {
            return .failure(.resourceMissing(name: fileName, searched: searched))
        }
        return .success(text)
    }()
}
