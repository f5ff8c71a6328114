import Foundation
import Testing

/// The package's DocC comments, read as text: an example names only types that exist, and no
/// summary is said twice.
struct DocCommentTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every module's folder: each one's examples are checked.
    static var modules: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
    }

    /// Types of the platform (Swift, Foundation, CoreGraphics, UIKit, the C library) that
    /// examples may name besides the package's own.
    static let platformNames: Set<String> = [
        "AnyKeyPath", "AnyObject", "Bool", "CGRect", "Character", "Data", "Date", "Double", "Int", "Locale", "MainActor",
        "NSDictionary", "NSExtensionJavaScriptFinalizeArgumentKey", "NSExtensionJavaScriptPreprocessingResultsKey",
        "NSRange", "NSTemporaryDirectory", "NotificationCenter", "ProcessInfo", "Set", "SIGTERM", "STDIN_FILENO", "Self", "Sendable", "String", "Task",
        "UITextView", "UIView", "UIViewController", "URL", "Void",
    ]

    /// Types an example uses for the caller's own: `TextFieldBinding`'s app model.
    static let callerNames: Set<String> = ["Order"]

    /// One `///` comment: where it starts and its lines without the slashes.
    struct DocComment {
        let file: String
        let line: Int
        let lines: [String]

        /// The lines of its fenced Swift examples.
        var exampleLines: [String] {
            // The fence that closes a block of another language (```json) opens nothing.
            var inFence = false
            var isSwift = false
            var result: [String] = []
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") {
                    let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    isSwift = !inFence && (language.isEmpty || language == "swift")
                    inFence.toggle()
                    continue
                }
                if inFence, isSwift { result.append(line) }
            }
            return result
        }

        /// The first paragraph, which DocC shows as the summary.
        var summary: String {
            lines.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
        }
    }

    static func swiftFiles(under folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    static func docComments(in file: URL) throws -> [DocComment] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var comments: [DocComment] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("///") else {
                index += 1
                continue
            }
            let start = index
            var body: [String] = []
            while index < lines.count, let range = lines[index].range(of: "///"),
                  lines[index][..<range.lowerBound].allSatisfy(\.isWhitespace) {
                body.append(String(lines[index][range.upperBound...]))
                index += 1
            }
            comments.append(DocComment(file: file.path, line: start + 1, lines: body))
        }
        return comments
    }

    /// Every type, protocol and alias the package declares, outside its comments.
    static func declaredNames() throws -> Set<String> {
        let declaration = try Regex(#"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#)
        var names: Set<String> = []
        for file in swiftFiles(under: sources) {
            for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for match in line.matches(of: declaration) {
                    if let name = match.output[1].substring { names.insert(String(name)) }
                }
            }
        }
        return names
    }

    /// The capitalised names an example's code uses, strings and comments left out; a name
    /// after a dot (a member, a nested type) is not one.
    static func namesUsed(in code: String) throws -> [String] {
        let rawStrings = try Regex(##"#".*?"#"##)
        let strings = try Regex(#""(?:[^"\\]|\\.)*""#)
        let name = try Regex(#"(?:^|[^.\w])([A-Z][A-Za-z0-9_]*)"#)
        var text = code.replacing(rawStrings, with: "\"\"").replacing(strings, with: "\"\"")
        if let comment = text.range(of: "//") { text = String(text[..<comment.lowerBound]) }
        return text.matches(of: name).compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test func everyTypeAnExampleNamesExists() throws {
        let declared = try Self.declaredNames()
        let declaration = try Regex(#"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#)
        var examplesRead = 0
        #expect(Self.modules.count > 15, "only \(Self.modules.count) module folders found")
        for module in Self.modules {
            for file in Self.swiftFiles(under: Self.sources.appendingPathComponent(module)) {
                for comment in try Self.docComments(in: file) where !comment.exampleLines.isEmpty {
                    examplesRead += 1
                    let code = comment.exampleLines.joined(separator: "\n")
                    // A type the example declares for itself is one it may use.
                    let ownTypes = Set(code.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) })
                    for line in comment.exampleLines {
                        for name in try Self.namesUsed(in: line)
                        where !declared.contains(name) && !ownTypes.contains(name) && !Self.platformNames.contains(name) && !Self.callerNames.contains(name) {
                            Issue.record("\(comment.file):\(comment.line): an example names \(name), which does not exist: \(line)")
                        }
                    }
                }
            }
        }
        #expect(examplesRead > 30, "only \(examplesRead) examples found: is the Sources folder where the test looks?")
    }

    @Test func noSummaryIsSaidTwice() throws {
        let sentenceEnd = try Regex(#"[.!?]\s+(?=[A-Z])"#)
        var summariesRead = 0
        for file in Self.swiftFiles(under: Self.sources) {
            for comment in try Self.docComments(in: file) {
                summariesRead += 1
                // Code spans and abbreviations hold dots that end no sentence.
                let text = comment.summary.replacing(try Regex(#"`[^`]*`"#), with: "code")
                    .replacing(try Regex(#"\b(?:e\.g|i\.e|etc|vs)\."#), with: "x")
                let openings = text.split(separator: sentenceEnd).map { $0.split(separator: " ").prefix(3).joined(separator: " ").lowercased() }
                #expect(Set(openings).count == openings.count,
                        "\(comment.file):\(comment.line): the summary says the same thing twice: \(comment.summary)")
            }
        }
        #expect(summariesRead > 500)
    }
}
