/// A script ready to go to a page: the user's text, the code that runs, and the way back from
/// positions in that code to positions in the user's text.
///
/// The code runs as the body of its own function, so each script has its own scope, and the
/// function's parameters (``parameters``) give it PageScript's `console`, `alert`, `confirm` and
/// `prompt` instead of the page's.
///
/// ```swift
/// let script = try PreparedScript("document.title", mode: .console)
/// let result = try await page.run(script)
/// ```
public struct PreparedScript: Sendable {
    /// The script as the user wrote it.
    public let source: String
    /// How the text was read.
    public let mode: ScriptMode
    /// The code that runs, as the body of a function.
    public let code: String
    /// Whether that function is `async` (the code awaits at its top level).
    public let isAsync: Bool
    /// The names the function takes, each a value PageScript provides.
    public let parameters: [String]

    /// The parameters every script gets.
    public static let standardParameters = ["console", "alert", "confirm", "prompt"]

    /// Prepares `source`.
    ///
    /// - Throws: ``ScriptError`` (a `SyntaxError` with its line and column) when the text cannot
    ///   run, found without a page.
    public init(_ source: String, mode: ScriptMode) throws(ScriptError) {
        self.source = source
        self.mode = mode
        code = source
        isAsync = false
        parameters = Self.standardParameters
    }

    /// The user's position for a 1-based `line` and `column` in ``code``; `nil` when it is not
    /// in the user's text.
    func originalPosition(line: Int, column: Int?) -> (line: Int, column: Int?)? {
        guard line >= 1, line <= JavaScriptLines.count(in: code) else { return nil }
        return (line, column)
    }

    /// The UTF-16 ranges of the tokens of ``code``, in order, none inside a template: where a
    /// compile-only probe may cut the code (``SyntaxErrorLocator``).
    func tokenRanges() -> [Range<Int>] {
        code.utf16.enumerated().compactMap { offset, unit in
            unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D ? nil : offset..<(offset + 1)
        }
    }
}
