import Foundation
import Testing

/// On iOS, `import Foundation` does not bring CoreGraphics in (on macOS and Linux it does): a file
/// that names `CGRect` with Foundation alone builds here and fails on iOS with "value of type
/// 'CGRect' has no member 'maxY'". Every Swift file of the package and of the Apple targets that
/// uses CoreGraphics geometry must import CoreGraphics itself, where it can be imported, or UIKit,
/// which re-exports it.
@Suite("CoreGraphics is imported wherever its geometry is used")
struct CoreGraphicsImportTests {
    /// Every Swift file under `Sources/` and `Apple/`, relative to the repository root.
    static let swiftFiles: [String] = ["Sources", "Apple"].flatMap { folder in
        RepositoryPaths.files(under: RepositoryPaths.root.appendingPathComponent(folder), endingIn: ".swift")
    }.map { String($0.path.dropFirst(RepositoryPaths.root.path.count + 1)) }

    @Test("there are files that use CoreGraphics geometry to check")
    func someFilesUseGeometry() throws {
        let users = try Self.swiftFiles.filter { try !CoreGraphicsUse.geometryNames(in: Self.text(of: $0)).isEmpty }
        #expect(users.contains("Sources/TextInput/Keyboard/KeyboardAvoidance.swift"))
    }

    @Test("every file that uses CGRect, CGPoint, CGSize or CGAffineTransform imports CoreGraphics", arguments: swiftFiles)
    func importsCoreGraphics(_ path: String) throws {
        let text = try Self.text(of: path)
        let used = CoreGraphicsUse.geometryNames(in: text)
        #expect(used.isEmpty || CoreGraphicsUse.importsCoreGraphics(text),
                "\(path) uses \(used.sorted().joined(separator: ", ")) without `#if canImport(CoreGraphics) import CoreGraphics #endif`")
    }

    @Test("the check fails on a file whose import was removed")
    func checkCatchesMissingImport() throws {
        let fixed = try Self.text(of: "Sources/TextInput/Keyboard/KeyboardAvoidance.swift")
        #expect(CoreGraphicsUse.importsCoreGraphics(fixed))
        let broken = fixed.replacingOccurrences(of: "#if canImport(CoreGraphics)\nimport CoreGraphics\n#endif\n", with: "")
        #expect(broken != fixed)
        #expect(!CoreGraphicsUse.geometryNames(in: broken).isEmpty)
        #expect(!CoreGraphicsUse.importsCoreGraphics(broken))
    }

    @Test("names in comments and longer identifiers do not count")
    func commentsDoNotCount() {
        #expect(CoreGraphicsUse.geometryNames(in: "/// Holds a `CGRect`.\n// CGPoint\nlet x = 1\n").isEmpty)
        #expect(CoreGraphicsUse.geometryNames(in: "struct MyCGRectBox {}\nlet CGSizeLike = 2\n").isEmpty)
        #expect(CoreGraphicsUse.geometryNames(in: "let r = CGRect.zero // frame\n") == ["CGRect"])
        #expect(CoreGraphicsUse.importsCoreGraphics("import UIKit\nlet r = CGRect.zero\n"))
        #expect(!CoreGraphicsUse.importsCoreGraphics("import Foundation\nlet r = CGRect.zero\n"))
    }

    private static func text(of path: String) throws -> String {
        try String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)
    }
}

/// Finds CoreGraphics geometry in Swift source, and the imports that make it available on iOS.
enum CoreGraphicsUse {
    static let geometryTypes: Set<String> = ["CGRect", "CGPoint", "CGSize", "CGAffineTransform", "CGVector"]

    /// The geometry type names used in code (comments and string-free `//` tails ignored).
    static func geometryNames(in text: String) -> Set<String> {
        var found: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = codePart(of: line)
            var word = ""
            for character in code + " " {
                if character.isLetter || character.isNumber || character == "_" {
                    word.append(character)
                } else {
                    if geometryTypes.contains(word) { found.insert(word) }
                    word = ""
                }
            }
        }
        return found
    }

    /// Whether the file imports CoreGraphics guarded by `canImport`, or imports UIKit.
    static func importsCoreGraphics(_ text: String) -> Bool {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains("import UIKit") { return true }
        guard let index = lines.firstIndex(of: "import CoreGraphics"), index > 0 else { return false }
        return lines[index - 1] == "#if canImport(CoreGraphics)"
    }

    /// The line without a trailing `//` comment; whole-line comments give an empty string.
    private static func codePart(of line: Substring) -> Substring {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { return "" }
        if let range = line.range(of: "//") { return line[..<range.lowerBound] }
        return line
    }
}
