import SystemSupport

/// One frame of a stack trace (`console.trace`).
///
/// A frame in the user's script has ``isInScript`` set and its ``line`` and ``column`` in the
/// script as the user wrote it; other frames (the page's own scripts) keep the engine's URL and
/// position. JavaScriptCore names functions but gives no positions for code run through WebDriver.
public struct StackFrame: Sendable, Hashable, CustomStringConvertible {
    /// The function's name; empty for anonymous code.
    public let function: String
    /// The script's URL for frames outside the user's script.
    public let url: String?
    /// The 1-based line, when the engine tells it.
    public let line: Int?
    /// The 1-based column, when the engine tells it.
    public let column: Int?
    /// Whether the frame is in the user's script.
    public let isInScript: Bool

    public init(function: String, url: String? = nil, line: Int? = nil, column: Int? = nil, isInScript: Bool = false) {
        self.function = function
        self.url = url
        self.line = line
        self.column = column
        self.isInScript = isInScript
    }

    /// The frame as a console shows it: `check (line 3, column 5)` in the user's script,
    /// `load (https://example.com/app.js:10:4)` elsewhere, `(anonymous)` for unnamed code.
    ///
    /// The text comes from the page: escape it before it reaches a terminal.
    ///
    /// ```swift
    /// StackFrame(function: "check", line: 3, column: 5, isInScript: true).description  // "check (line 3, column 5)"
    /// ```
    public var description: String {
        let name = function.isEmpty ? "(anonymous)" : function
        if isInScript {
            guard let line else { return "\(name) (your script)" }
            return "\(name) (line \(line)\(column.map { ", column \($0)" } ?? ""))"
        }
        let place = [url, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return place.isEmpty ? name : "\(name) (\(place))"
    }

    /// `{"function","url","line","column","inScript"}`.
    public var json: JSONValue {
        [
            "function": .string(function),
            "url": url.map { .string($0) } ?? .null,
            "line": line.map { .integer(Int64($0)) } ?? .null,
            "column": column.map { .integer(Int64($0)) } ?? .null,
            "inScript": .bool(isInScript),
        ]
    }
}
