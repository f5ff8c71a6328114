import Foundation
import Testing

/// Every module a file imports is one its target declares in `Package.swift`, products of other
/// packages included: a target never borrows a module another dependency happens to bring.
struct DeclaredImportTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Modules of the platform, which no target declares.
    static let platformModules: Set<String> = [
        "CoreGraphics", "CryptoKit", "Darwin", "Dispatch", "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc",
        "MobileCoreServices", "Musl", "Combine", "Observation", "Synchronization", "Testing", "UIKit", "UniformTypeIdentifiers", "WebKit",
        "XCTest", "os",
    ]

    /// A target of the manifest: its name, its folder and what it declares.
    struct Target {
        let name: String
        let folder: URL
        let dependencies: Set<String>
    }

    /// The manifest's targets, read from its text: each `.target(`, `.executableTarget(` or
    /// `.testTarget(` with its `name:` and the names in its `dependencies:` list.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let opening = try Regex(#"\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#)
        let quoted = try Regex(#""([^"]+)""#)
        var result: [Target] = []
        for match in manifest.matches(of: opening) {
            guard let kind = match.output[1].substring, let name = match.output[2].substring else { continue }
            // The target's arguments: up to the parenthesis that closes `.target(`.
            guard let open = manifest[match.range].firstIndex(of: "(") else { continue }
            let arguments = manifest[match.range.lowerBound..<closing(")", of: "(", in: manifest, from: open)]
            var dependencies: Set<String> = []
            if let list = arguments.range(of: "dependencies:"), let bracket = arguments[list.upperBound...].firstIndex(of: "[") {
                let text = arguments[list.upperBound..<closing("]", of: "[", in: arguments, from: bracket)]
                // `.product(name: "NIOCore", package: "swift-nio")`: the product's name is the module's.
                let withoutPackages = String(text).replacing(try Regex(#"package:\s*"[^"]*""#), with: "")
                    .replacing(try Regex(#"\.when\([^)]*\)"#), with: "")
                dependencies = Set(withoutPackages.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) })
            }
            let folder = root.appendingPathComponent(kind == "testTarget" ? "Tests" : "Sources").appendingPathComponent(String(name))
            result.append(Target(name: String(name), folder: folder, dependencies: dependencies))
        }
        return result
    }

    /// Where the `close` that matches the `open` at `start` is, or the text's end.
    static func closing(_ close: Character, of open: Character, in text: Substring, from start: String.Index) -> String.Index {
        var depth = 0
        for position in text[start...].indices {
            if text[position] == open { depth += 1 }
            if text[position] == close {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return text.endIndex
    }

    static func closing(_ close: Character, of open: Character, in text: String, from start: String.Index) -> String.Index {
        closing(close, of: open, in: text[...], from: start)
    }

    /// The modules a file imports (`import M`, `@testable import M`, `@_spi(X) import M`). A
    /// lowercase name is a Python script's inside a string (the bench's peers), unless the
    /// platform has it.
    static func imports(in file: URL) throws -> [(line: Int, module: String)] {
        let statement = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_]\w*)"#)
        return try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").enumerated().compactMap { index, line in
            guard let match = line.firstMatch(of: statement), let module = match.output[1].substring else { return nil }
            guard module.first?.isUppercase == true || platformModules.contains(String(module)) else { return nil }
            return (index + 1, String(module))
        }
    }

    @Test func everyImportedModuleIsDeclared() throws {
        let targets = try Self.targets()
        #expect(targets.count > 30, "only \(targets.count) targets read from Package.swift")
        var filesRead = 0
        for target in targets {
            let files = (FileManager.default.enumerator(at: target.folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { $0.pathExtension == "swift" }
            for file in files {
                filesRead += 1
                for (line, module) in try Self.imports(in: file)
                where module != target.name && !target.dependencies.contains(module) && !Self.platformModules.contains(module) {
                    Issue.record("\(file.path):\(line): \(target.name) imports \(module), which Package.swift does not declare for it")
                }
            }
        }
        #expect(filesRead > 500)
    }

    /// The release binary carries no test code: nothing the executable depends on, directly or
    /// not, is `TestSupport`.
    @Test func theExecutableDoesNotLinkTestSupport() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
        var seen: Set<String> = []
        var queue = ["pagescript"]
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let target = targets[name] else { continue }
            queue += target.dependencies
        }
        #expect(seen.contains("PageRuntime"), "the walk did not reach the executable's libraries")
        #expect(!seen.contains("TestSupport"))
    }
}
