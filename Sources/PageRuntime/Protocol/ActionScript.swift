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

    /// A line ends at a line feed and is trimmed of what `CharacterSet.whitespaces` holds (tab and
    /// the space separators). The text is read as UTF-8 bytes, and only a non-ASCII byte at either
    /// end of a line is decoded: splitting by `Character` and Foundation's
    /// `trimmingCharacters(in:)` (through `NSString`, with a protocol conformance lookup per line)
    /// made compacting Action.js a large share of what a cold `pagescript run` executed.
    static func compact(_ source: String) -> String {
        var source = source
        return source.withUTF8 { bytes in
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var first = lineStart
                var last = lineEnd
                while first < last, let length = horizontalSpaceLength(bytes, startingAt: first, before: last) { first += length }
                while first < last, let length = horizontalSpaceLength(bytes, endingAt: last, after: first) { last -= length }
                let isComment = last - first >= 2 && bytes[first] == UInt8(ascii: "/") && bytes[first + 1] == UInt8(ascii: "/")
                if first < last, !isComment {
                    if !kept.isEmpty { kept.append(UInt8(ascii: "\n")) }
                    kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first..<last]))
                }
                lineStart = lineEnd + 1
            }
            return String(decoding: kept, as: UTF8.self)
        }
    }

    /// The length in bytes of the tab or space separator (general category Zs, as in
    /// `CharacterSet.whitespaces`) that starts at `start`; `nil` when there is none.
    private static func horizontalSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, startingAt start: Int, before end: Int) -> Int? {
        let lead = bytes[start]
        if lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t") { return 1 }
        guard lead >= 0xC0 else { return nil }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard start + length <= end else { return nil }
        return isSpaceSeparator(UnsafeBufferPointer(rebasing: bytes[start..<start + length])) ? length : nil
    }

    /// The length in bytes of the tab or space separator that ends just before `end`; `nil` when
    /// there is none.
    private static func horizontalSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int, after start: Int) -> Int? {
        let last = bytes[end - 1]
        if last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { return 1 }
        guard last >= 0x80 else { return nil }
        // Back over the continuation bytes (10xxxxxx) to the scalar's first byte.
        var lead = end - 1
        while lead > start, bytes[lead] & 0xC0 == 0x80, end - lead < 4 { lead -= 1 }
        return isSpaceSeparator(UnsafeBufferPointer(rebasing: bytes[lead..<end])) ? end - lead : nil
    }

    /// Whether `bytes` are exactly one scalar whose general category is Zs.
    private static func isSpaceSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator), iterator.next() == nil else { return false }
        return scalar.properties.generalCategory == .spaceSeparator
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
        // The target's sources folder: this file is in Sources/PageRuntime/Protocol/.
        let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let (folder, searched) = ResourceBundleLocator.locate(folder: "Resources", target: "PageRuntime", sourceDirectory: sourceDirectory)
        guard let folder, let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else {
            return .failure(.resourceMissing(name: name, searched: searched))
        }
        return .success(text)
    }

    private static let cachedSource: Result<String, InjectionError> = resource(named: fileName)

    private static let cachedCompactSource: Result<String, InjectionError> = cachedSource.map(compact)

    private static let cachedUserscriptAPISource: Result<String, InjectionError> = resource(named: userscriptAPIFileName).map(compact)
}
