import Foundation
import Testing

/// PageScriptUIKit must compile to nothing where UIKit is missing, so that the portable modules
/// and their tests build on Linux with it in the package; and neither it nor the extension may
/// use what app extensions lack.
@Suite("The UIKit layer's guards")
struct UIKitGuardTests {
    /// The layer's Swift files, relative to the repository root.
    static let layerFiles = RepositoryPaths.files(under: RepositoryPaths.pageScriptUIKit, endingIn: ".swift")
        .map { relativePath($0) }

    /// Every Swift file that runs inside the extension: the layer and the extension's own.
    static let extensionFiles = layerFiles + RepositoryPaths.files(
        under: RepositoryPaths.apple.appendingPathComponent("ActionExtension"),
        endingIn: ".swift"
    ).map { relativePath($0) }

    @Test("the layer has sources to check")
    func layerHasSources() {
        #expect(!Self.layerFiles.isEmpty)
    }

    @Test("every file is entirely inside #if canImport(UIKit)", arguments: UIKitGuardTests.layerFiles)
    func fileIsInsideCanImportUIKit(_ path: String) throws {
        let code = try Self.codeLines(of: path)
        try #require(!code.isEmpty, "\(path) is empty")
        #expect(code.first == "#if canImport(UIKit)", "\(path) starts with \(code.first ?? "")")
        #expect(code.last.map(Self.isEndif) == true, "\(path) ends with \(code.last ?? "")")
        // The opening #if must be closed by the last line and by nothing earlier, and no #else at
        // its level may let code through where UIKit is missing.
        var depth = 0
        for (number, line) in code.enumerated() {
            if line.hasPrefix("#if ") {
                depth += 1
            } else if Self.isEndif(line) {
                depth -= 1
                #expect(depth > 0 || number == code.count - 1, "\(path): the UIKit guard closes before the end")
            } else if depth == 1, line.hasPrefix("#else") || line.hasPrefix("#elseif") {
                Issue.record("\(path): \(line) lets code through without UIKit")
            }
        }
        #expect(depth == 0, "\(path): unbalanced #if")
    }

    @Test("no UIScreen.main or UIApplication.shared where an extension runs", arguments: UIKitGuardTests.extensionFiles)
    func noAppOnlyAPI(_ path: String) throws {
        for line in try Self.codeLines(of: path) where !line.hasPrefix("//") {
            #expect(!line.contains("UIScreen.main"), "\(path): \(line)")
            #expect(!line.contains("UIApplication.shared"), "\(path): \(line)")
        }
    }

    /// The file's lines, trimmed, without blank lines and without the comments before the first
    /// code line and after the last.
    private static func codeLines(of path: String) throws -> [String] {
        let text = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        var inBlockComment = false
        while let first = lines.first {
            if inBlockComment {
                inBlockComment = !first.contains("*/")
            } else if first.hasPrefix("/*") {
                inBlockComment = !first.contains("*/")
            } else if !first.hasPrefix("//") {
                break
            }
            lines.removeFirst()
        }
        while let last = lines.last, last.hasPrefix("//") {
            lines.removeLast()
        }
        return lines
    }

    private static func isEndif(_ line: String) -> Bool {
        line == "#endif" || line.hasPrefix("#endif ") || line.hasPrefix("#endif//")
    }

    private static func relativePath(_ url: URL) -> String {
        let root = RepositoryPaths.root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
