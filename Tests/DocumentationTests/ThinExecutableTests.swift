import Foundation
import Testing

/// The executable only parses, calls one library entry point and prints: every file under
/// `Sources/pagescript` is short, and none handles signals, kills processes or reads keys, which
/// belong to libraries that can be tested without spawning the binary.
struct ThinExecutableTests {
    static let folder = DeclaredImportTests.root.appendingPathComponent("Sources/pagescript")

    static func files() throws -> [(name: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return try enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (url.path(percentEncoded: false).replacingOccurrences(of: folder.path(percentEncoded: false), with: ""),
             try String(contentsOf: url, encoding: .utf8))
        }
    }

    @Test func noFileIsOver120Lines() throws {
        let files = try Self.files()
        #expect(files.count > 10, "the executable's files were not found")
        for file in files {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - (file.text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= 120, "\(file.name) has \(lines) lines")
        }
    }

    @Test func noFileHandlesSignalsKillsOrReadsKeys() throws {
        // A call of one of these functions; an enum case of the same name (`case signal(Int32)`) is no call.
        let forbidden = try Regex(#"(^|[^A-Za-z_.])(signal|sigaction|kill|killpg|tcsetattr|cfmakeraw)\(|\.readKeys\(|RawMode\."#)
        for file in try Self.files() {
            let lines = file.text.split(separator: "\n").filter { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.hasPrefix("//") && !trimmed.hasPrefix("case ")
            }
            for line in lines where line.contains(forbidden) {
                Issue.record("\(file.name): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
