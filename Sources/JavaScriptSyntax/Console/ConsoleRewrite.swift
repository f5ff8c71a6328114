/// The user's code rewritten into a function body that behaves as a browser console would run
/// it: the value of the last expression is the result, an input that is an object literal gives
/// the object, and `await` works at the top level.
///
/// PageScript does not `eval` the user's code in the page (a page's Content-Security-Policy can
/// forbid `eval`): it sends the code as the body of a WebDriver Execute Script call, inside an
/// async function. A function body has no completion value and treats `{a: 1}` as a block, so
/// the rewrite recreates the console's conveniences in the text itself:
///
/// - **Completion value.** When the last statement of the top level is an expression statement,
///   `return ` is inserted just before its first token, on its line. Other last statements
///   (declarations, `if`, loops, blocks, ...) give no value (`undefined`). Function declarations
///   and empty statements after the last expression do not count: they have no effect where they
///   stand, as in a console (`main(); function main() {...}` returns `main()`'s value).
/// - **Object literal.** In ``Mode/console`` mode, an input that is a single `{ ... }` that reads
///   as an object literal (optionally followed by `;`) becomes `return ({ ... })`. `{}` alone
///   gives an empty object, as in Chrome's console.
/// - **Top-level `await`** (and `for await`) outside any function is reported in
///   ``usesTopLevelAwait``, so that the caller knows the body needs an async function.
/// - **Top-level `return`** is an error in ``Mode/console`` mode, with its position; in
///   ``Mode/userscript`` mode it is allowed, as userscript managers run a script inside a
///   function.
///
/// Nothing else changes: comments, whitespace, line breaks, a `"use strict"` directive (still
/// first, so it still applies) and `// ==UserScript==` blocks stay as they are. A `#!` first line,
/// which is invalid inside a function, becomes a `//` comment of the same length. No line is
/// added or removed, so line numbers are the user's; columns shift only on the line where text
/// is inserted, and ``originalPosition(line:column:)`` maps them back.
///
/// ```swift
/// let rewrite = try ConsoleRewrite("const t = document.title\nt.toUpperCase()")
/// rewrite.body               // "const t = document.title\nreturn t.toUpperCase()\n"
/// rewrite.usesTopLevelAwait  // false
/// ```
///
/// The caller puts ``body`` inside its function on lines of its own, starting its closing text
/// on a new line (``body`` always ends with a line break, so a `//` comment on the user's last
/// line cannot swallow it), and subtracts its own lines before mapping an engine's position.
public struct ConsoleRewrite: Hashable, Sendable {
    /// How the top level of the code is treated.
    public enum Mode: Hashable, Sendable {
        /// Code typed or sent like a console's (`-e`, `-f`, the editor): top-level `return` is an
        /// error, an input that is an object literal gives the object.
        case console
        /// A userscript: top-level `return` is allowed (the managers run scripts inside a
        /// function), and `{ ... }` alone stays a block.
        case userscript
    }

    /// What the rewritten body returns.
    public enum Completion: Hashable, Sendable {
        /// Nothing: the last statement is not an expression statement (or there is none). The
        /// body returns `undefined`, unless the user's own `return` (``Mode/userscript``) returns.
        case none
        /// The value of the expression statement that starts at this position in the user's code.
        case lastExpression(SourcePosition)
        /// The object literal that is the whole input, starting at this position.
        case objectLiteral(SourcePosition)
    }

    /// A piece of text inserted into the body.
    struct Insertion: Hashable, Sendable {
        /// Where it is inserted in the user's code.
        var offset: Int
        var text: String
        /// Its first column in the body.
        var bodyLine: Int
        var bodyColumn: Int
        /// The position positions inside it map to: the start of the statement it belongs to.
        var anchor: SourcePosition
    }

    /// How the top level was treated.
    public let mode: Mode
    /// The code to place inside the function body. It always ends with a line break.
    public let body: String
    /// What ``body`` returns.
    public let completion: Completion
    /// Whether `await` is used outside any function (in `for await` too), so that ``body`` must
    /// run inside an async function. Inside an async function this is always safe; when in doubt
    /// the rewrite says `true`.
    public let usesTopLevelAwait: Bool

    let insertions: [Insertion]
    /// Where each line of the user's code starts, in UTF-16 code units.
    let lineStarts: [Int]
    /// The length of the user's code in UTF-16 code units.
    let sourceLength: Int
    /// The body ends with a line break the user's code did not have.
    let hasAddedLineBreak: Bool

    /// Rewrites the user's code into a function body.
    ///
    /// - Parameters:
    ///   - source: The user's code, exactly as written.
    ///   - mode: ``Mode/console`` (the default) or ``Mode/userscript``.
    /// - Throws: A ``JavaScriptSyntaxError`` that is certain: an unterminated string, template,
    ///   comment or regular expression, a bracket that does not match, an invalid character or
    ///   number or escape, or (in console mode) `return` outside any function.
    public init(_ source: String, mode: Mode = .console) throws(JavaScriptSyntaxError) {
        let units = CodeUnit.utf16(source)
        self.mode = mode
        self.sourceLength = units.count
        self.lineStarts = Self.lineStarts(of: units)

        let outline = ScriptOutline(units: units, startingIn: .initial, depth: 0)
        let object = mode == .console ? Self.wholeObjectLiteral(units, topLevel: outline) : nil
        let facts = object?.inside ?? outline
        if object == nil, let error = outline.error {
            throw error
        }
        if mode == .console, let position = facts.topLevelReturn {
            throw Self.illegalReturn(at: position, value: facts.topLevelReturnValue, units: units)
        }
        self.usesTopLevelAwait = facts.topLevelAwait != nil

        var insertions: [(offset: Int, text: String, anchor: SourcePosition)] = []
        if let object {
            insertions = [(object.start.offset, "return (", object.start), (object.end, ")", object.start)]
            self.completion = .objectLiteral(object.start)
        } else if let statement = Self.completionStatement(outline.items) {
            let start = outline.items[statement.first].start
            insertions = [(start.offset, "return ", start)]
            self.completion = .lastExpression(start)
        } else {
            self.completion = .none
        }

        var placed: [Insertion] = []
        var shift = 0
        for insertion in insertions {
            let line = Self.line(containing: insertion.offset, lineStarts: lineStarts)
            var column = insertion.offset - lineStarts[line - 1] + 1
            if let previous = placed.last, previous.bodyLine == line {
                column += shift
            } else {
                shift = 0
            }
            placed.append(Insertion(offset: insertion.offset, text: insertion.text, bodyLine: line, bodyColumn: column, anchor: insertion.anchor))
            shift += insertion.text.utf16.count
        }
        self.insertions = placed
        self.hasAddedLineBreak = !(units.last.map(CodeUnit.isLineTerminator) ?? false)
        self.body = Self.body(of: source, hashbangOffset: facts.hashbangOffset, insertions: placed, addingLineBreak: hasAddedLineBreak)
    }

    /// Builds the body from slices of the source (which keeps its UTF-8 storage, much faster than
    /// transcoding UTF-16 back): the hashbang's `#!` made `//`, the insertions, a final line break.
    private static func body(of source: String, hashbangOffset: Int?, insertions: [Insertion], addingLineBreak: Bool) -> String {
        var body = ""
        body.reserveCapacity(source.utf8.count + 16)
        var copied = source.startIndex
        if let hashbangOffset {
            let hashbang = String.Index(utf16Offset: hashbangOffset, in: source)
            body += source[copied..<hashbang]
            body += "//"
            copied = source.utf16.index(hashbang, offsetBy: 2)
        }
        for insertion in insertions {
            let place = String.Index(utf16Offset: insertion.offset, in: source)
            body += source[copied..<place]
            body += insertion.text
            copied = place
        }
        body += source[copied...]
        if addingLineBreak {
            body += "\n"
        }
        return body
    }

    /// The statement whose value is the body's result: the last statement that is not empty
    /// and not a function declaration, when it is an expression statement. A directive
    /// (`"use strict"`) is never returned when statements follow it, as `return` would stop it
    /// from being a directive.
    private static func completionStatement(_ items: [OutlineItem]) -> StatementScanner.Statement? {
        var scanner = StatementScanner(items: items)
        var last: StatementScanner.Statement?
        var lastIsDirective = false
        var isInPrologue = true
        var followedByDeclarations = false
        while let statement = scanner.next() {
            let isDirective = isInPrologue && statement.kind == .expression && isStringAlone(items, statement)
            isInPrologue = isDirective
            switch statement.kind {
            case .empty:
                continue
            case .functionDeclaration:
                followedByDeclarations = true
            case .expression, .other:
                last = statement
                lastIsDirective = isDirective
                followedByDeclarations = false
            }
        }
        guard let last, last.kind == .expression, !(lastIsDirective && followedByDeclarations) else { return nil }
        return last
    }

    private static func isStringAlone(_ items: [OutlineItem], _ statement: StatementScanner.Statement) -> Bool {
        guard case .token(.string) = items[statement.first].shape else { return false }
        let count = statement.end - statement.first
        return count == 1 || (count == 2 && items[statement.first + 1].isPunctuator(.semicolon))
    }

    /// An input that is an object literal: where its braces are, and the reading of its inside.
    private struct WholeObject {
        var inside: ScriptOutline
        /// Where its `{` is.
        var start: SourcePosition
        /// The offset just after its `}`.
        var end: Int
    }

    /// The input read as an object literal, when it is one `{ ... }` (with only `;` after it)
    /// whose inside reads as property definitions.
    private static func wholeObjectLiteral(_ units: [UInt16], topLevel: ScriptOutline) -> WholeObject? {
        guard case .brace? = topLevel.outermostKind else { return nil }
        if topLevel.error == nil {
            guard let first = topLevel.items.first, first.isBraceGroup,
                  topLevel.items.dropFirst().allSatisfy({ $0.isPunctuator(.semicolon) }) else { return nil }
        }
        var expressionStart = LexerState.initial
        expressionStart.level.expected = .expression
        let inside = ScriptOutline(units: units, startingIn: expressionStart, depth: 1)
        guard inside.error == nil, inside.outermostKind == .brace(.object) else { return nil }
        let whole = ScriptOutline(units: units, startingIn: expressionStart, depth: 0)
        guard let group = whole.items.first, group.isBraceGroup,
              whole.items.dropFirst().allSatisfy({ $0.isPunctuator(.semicolon) }),
              ObjectLiteralCheck.isObjectLiteral(inside.items) else { return nil }
        return WholeObject(inside: inside, start: group.start, end: group.end)
    }

    private static func illegalReturn(at position: SourcePosition, value: Range<Int>?, units: [UInt16]) -> JavaScriptSyntaxError {
        var message = "Illegal return statement: `return` is only valid inside a function, and this code runs like a console's, where the result is the value of the last expression."
        let expression = value.map { String(decoding: units[$0], as: UTF16.self) } ?? ""
        let isShowable = !expression.isEmpty && expression.utf16.count <= 60
            && !expression.unicodeScalars.contains { scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator: true
                default: false
                }
            }
        if isShowable {
            message += " Write `\(expression)` instead of `return \(expression)`."
        } else {
            message += " End the code with the expression whose value you want: `document.title`, not `return document.title`. To stop early, use if/else or put the code in a function."
        }
        return JavaScriptSyntaxError(kind: .illegalReturn, message: message, position: position)
    }
}
