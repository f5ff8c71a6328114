import Foundation

/// The few parts of an XcodeGen `project.yml` the tests read: a target's sources and its build
/// settings.
///
/// The spec is YAML, but only its block style is used here (indented keys, `- ` list items,
/// `key: value` pairs, `#` comments), so a line-based reader is enough and the tests need no
/// YAML package. Anything it does not understand makes a lookup fail, never pass.
struct XcodeGenSpec {
    /// One entry of a target's `sources`.
    struct Source: Equatable {
        /// The path, relative to the spec's folder.
        var path: String
        /// The explicit `buildPhase`, if the entry sets one.
        var buildPhase: String?
    }

    /// A meaningful line: its indentation and its text without comment or trailing spaces.
    private struct Line {
        var indent: Int
        var text: String
    }

    /// Why a lookup failed.
    struct LookupError: Error, CustomStringConvertible {
        var description: String
    }

    private let lines: [Line]

    /// Reads the spec at `url`.
    init(contentsOf url: URL) throws {
        try self.init(text: String(contentsOf: url, encoding: .utf8))
    }

    /// Reads a spec's text.
    init(text: String) {
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).compactMap { raw in
            var text = Substring(raw)
            if let comment = text.range(of: " #") {
                text = text[..<comment.lowerBound]
            }
            let indent = text.prefix(while: { $0 == " " }).count
            let content = text.dropFirst(indent).trimmingCharacters(in: .whitespaces)
            guard !content.isEmpty, !content.hasPrefix("#") else { return nil }
            return Line(indent: indent, text: content)
        }
    }

    /// The `sources` of a target, in order.
    func sources(ofTarget target: String) throws(LookupError) -> [Source] {
        let targetBlock = try block(ofKey: target, in: try block(ofKey: "targets", in: lines.indices))
        let items = try block(ofKey: "sources", in: targetBlock)
        guard let itemIndent = items.first.map({ lines[$0].indent }) else {
            throw LookupError(description: "\(target) has no sources")
        }
        var sources: [Source] = []
        for index in items where lines[index].indent == itemIndent {
            guard lines[index].text.hasPrefix("- ") else {
                throw LookupError(description: "\(target)'s sources are not a list: \(lines[index].text)")
            }
            let item = String(lines[index].text.dropFirst(2))
            guard let (key, value) = Self.pair(item), key == "path" else {
                sources.append(Source(path: Self.unquoted(item)))
                continue
            }
            var source = Source(path: value)
            // The item's other keys are the lines that follow it, indented past its "- ".
            var next = index + 1
            while next < items.upperBound, lines[next].indent > itemIndent {
                if let (key, value) = Self.pair(lines[next].text), key == "buildPhase" {
                    source.buildPhase = value
                }
                next += 1
            }
            sources.append(source)
        }
        return sources
    }

    /// The value of a build setting anywhere in a target's block, such as `INFOPLIST_FILE`.
    func setting(_ name: String, ofTarget target: String) throws(LookupError) -> String {
        let targetBlock = try block(ofKey: target, in: try block(ofKey: "targets", in: lines.indices))
        for index in targetBlock {
            if let (key, value) = Self.pair(lines[index].text), key == name {
                return value
            }
        }
        throw LookupError(description: "\(target) does not set \(name)")
    }

    /// The value of a setting anywhere in the spec, such as a project-wide build setting.
    func setting(_ name: String) throws(LookupError) -> String {
        for line in lines {
            if let (key, value) = Self.pair(line.text), key == name {
                return value
            }
        }
        throw LookupError(description: "the spec does not set \(name)")
    }

    /// The lines nested under `key:`, which must be among the shallowest lines of `range`.
    private func block(ofKey key: String, in range: Range<Int>) throws(LookupError) -> Range<Int> {
        guard let shallowest = range.map({ lines[$0].indent }).min(),
              let start = range.first(where: { lines[$0].indent == shallowest && lines[$0].text == key + ":" }) else {
            throw LookupError(description: "no \(key): block")
        }
        var end = start + 1
        while end < range.upperBound, lines[end].indent > lines[start].indent {
            end += 1
        }
        return (start + 1)..<end
    }

    /// `key: value` split in two, or `nil` when the line is not a pair with a value.
    private static func pair(_ text: String) -> (String, String)? {
        guard let colon = text.range(of: ": ") else { return nil }
        let key = text[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        let value = text[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, !value.isEmpty else { return nil }
        return (key, unquoted(value))
    }

    private static func unquoted(_ value: String) -> String {
        for quote in ["\"", "'"] where value.count >= 2 && value.hasPrefix(quote) && value.hasSuffix(quote) {
            return String(value.dropFirst().dropLast())
        }
        return value
    }
}
