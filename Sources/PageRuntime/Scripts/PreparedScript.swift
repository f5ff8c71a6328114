import GMAPI
import JavaScriptSyntax
import SystemSupport

/// A script ready to go to a page: the user's text, the code that runs, and the way back from
/// positions in that code to positions in the user's text.
///
/// The text goes through ``JavaScriptSyntax/ConsoleRewrite`` first: the last expression's value
/// is returned, an object-literal input gives the object (console mode), top-level `await` makes
/// the function async, and the syntax errors that are certain without an engine (an unterminated
/// string, unbalanced brackets, a top-level `return` in console mode, ...) are reported here,
/// with their position, before anything is sent. The code then runs as the body of its own
/// function, so each script has its own scope, and the function's parameters
/// (``parameters``) give it PageScript's `console`, `alert`, `confirm` and `prompt` instead of
/// the page's.
///
/// ```swift
/// let script = try PreparedScript("document.title", mode: .console)
/// script.code  // "return document.title\n"
/// let result = try await page.run(script)
/// ```
public struct PreparedScript: Sendable {
    /// The script as the user wrote it.
    public let source: String
    /// How the text was read.
    public let mode: ScriptMode
    /// The code that runs, as the body of a function.
    public var code: String { rewrite.body }
    /// Whether that function is `async` (the code awaits at its top level).
    public var isAsync: Bool { rewrite.usesTopLevelAwait }
    /// The names the function takes, each a value PageScript provides.
    public let parameters: [String]
    /// For a userscript run with the GM API: its part of the API (its names are among
    /// ``parameters``).
    public let userScript: GMScriptRun?
    /// What the script finds as `input` (a batch row's URL and fields), sent as data with the
    /// run; `nil` when the script has no `input` of PageScript's.
    public let input: JSONValue?
    /// The `@require` files' text, each ending with a line break, run before the code in its scope.
    let prelude: String

    let rewrite: ConsoleRewrite

    /// The parameters every script gets.
    public static let standardParameters = ["console", "alert", "confirm", "prompt"]

    /// Prepares `source`.
    ///
    /// - Throws: ``ScriptError`` (a `SyntaxError` with its line and column) when the text cannot
    ///   run, found without a page.
    public init(_ source: String, mode: ScriptMode) throws(ScriptError) {
        try self.init(source, mode: mode, userScript: nil)
    }

    /// Prepares `source` as ``init(_:mode:)`` does, with `input` as a parameter holding `input`.
    public init(_ source: String, mode: ScriptMode, input: JSONValue?) throws(ScriptError) {
        try self.init(source, mode: mode, userScript: nil, input: input, reusing: nil)
    }

    /// Prepares `source`, a userscript, with the GM API of `userScript`: the names its `@grant`
    /// lines ask for become parameters of its function, and its `@require` files run first, in
    /// the same scope.
    ///
    /// ```swift
    /// let userScript = try await host.prepare(stored.script, id: stored.id)
    /// let script = try PreparedScript(stored.script.text, mode: .userscript, userScript: userScript)
    /// ```
    public init(_ source: String, mode: ScriptMode = .userscript, userScript: GMScriptRun?) throws(ScriptError) {
        try self.init(source, mode: mode, userScript: userScript, reusing: nil)
    }

    /// Prepares `source` as ``init(_:mode:userScript:)`` does, taking the reading of `earlier`
    /// when that was the same text in the same mode (a script run again is not read again).
    init(_ source: String, mode: ScriptMode, userScript: GMScriptRun?, input: JSONValue? = nil,
         reusing earlier: PreparedScript?) throws(ScriptError) {
        self.source = source
        self.mode = mode
        self.userScript = userScript
        self.input = input
        parameters = Self.standardParameters + (input == nil ? [] : ["input"]) + (userScript?.grants.names ?? [])
        prelude = (userScript?.requires ?? []).map { text in
            text.hasSuffix("\n") || text.hasSuffix("\r") || text.hasSuffix("\u{2028}") || text.hasSuffix("\u{2029}") ? text : text + "\n"
        }.joined()
        if let earlier, earlier.mode == mode, earlier.source == source {
            rewrite = earlier.rewrite
            return
        }
        do {
            rewrite = try ConsoleRewrite(source, mode: mode == .console ? .console : .userscript)
        } catch {
            throw ScriptError(name: "SyntaxError", message: error.message, line: error.line, column: error.column)
        }
    }

    /// The user's position for a 1-based `line` and `column` in ``code``; `nil` when it is not
    /// in the user's text.
    func originalPosition(line: Int, column: Int?) -> (line: Int, column: Int?)? {
        guard let position = rewrite.originalPosition(line: line, column: column ?? 1) else { return nil }
        return (position.line, column == nil ? nil : position.column)
    }

    /// The UTF-16 ranges of the tokens of ``code``, in order, outside templates: where a
    /// compile-only probe may cut the code (``SyntaxErrorLocator``), so that no prefix ends
    /// inside a string, comment, regular expression or template.
    func tokenRanges() -> [Range<Int>] {
        guard let tokens = try? JavaScriptLexer.tokens(in: code) else { return [] }
        var ranges: [Range<Int>] = []
        var substitutions = 0
        let units = Array(code.utf16)
        for token in tokens where !token.isComment {
            if token.kind == .template {
                let opensWithBacktick = units[token.range.lowerBound] == 0x60
                let endsInSubstitution = token.range.count >= 2 && units[token.range.upperBound - 1] == 0x7B
                    && units[token.range.upperBound - 2] == 0x24
                if opensWithBacktick, endsInSubstitution { substitutions += 1 }
                if !opensWithBacktick, !endsInSubstitution { substitutions -= 1 }
            }
            if substitutions == 0 { ranges.append(token.range) }
        }
        return ranges
    }
}
