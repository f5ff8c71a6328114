/// Finds where the statements of the top level begin and end, and what kind each is, from the
/// top-level items of a script.
///
/// It follows statement syntax only as far as it decides boundaries: compound statements
/// (`if`/`else`, loops, `do`/`while`, labels) hold a statement that may end with a line break,
/// declarations end after their body, and the other statements end at `;`, at the end of the
/// input, or at a line break where automatic semicolon insertion applies, restricted
/// productions (`return`, `throw`, `break`, `continue`, postfix `++`/`--`) included. Nested
/// statements are followed with an explicit stack, so deeply nested input cannot exhaust the
/// call stack.
struct StatementScanner {
    enum StatementKind: Equatable {
        /// An expression statement: it has a value.
        case expression
        /// `;` alone.
        case empty
        /// `function`, `function*`, `async function` declarations: hoisted, no effect where they
        /// stand.
        case functionDeclaration
        /// Any other statement: a declaration, a block, `if`, a loop, `try`, `return`, ...
        case other
    }

    struct Statement {
        var kind: StatementKind
        /// The index of its first item.
        var first: Int
        /// The index after its last item.
        var end: Int
    }

    private enum Pending {
        /// After `if (...)`'s statement: an `else` may follow.
        case ifBody
        /// After `do`'s statement: `while (...)` follows.
        case doBody
        /// After a loop's, a label's or an `else`'s statement: nothing more.
        case body
    }

    private enum Head {
        case complete(StatementKind)
        case needsBody(Pending, StatementKind)
    }

    let items: [OutlineItem]
    private var index = 0

    init(items: [OutlineItem]) {
        self.items = items
    }

    /// Reads the next statement.
    ///
    /// - Returns: The statement, or `nil` at the end of the items.
    mutating func next() -> Statement? {
        guard index < items.count else { return nil }
        let first = index
        var pending: [Pending] = []
        var outermost: StatementKind?
        reading: while true {
            switch readHead() {
            case .needsBody(let body, let kind):
                outermost = outermost ?? kind
                pending.append(body)
                continue reading
            case .complete(let kind):
                outermost = outermost ?? kind
            }
            while let body = pending.popLast() {
                switch body {
                case .ifBody:
                    if peek?.isWord(.else) == true {
                        index += 1
                        pending.append(.body)
                        continue reading
                    }
                case .doBody:
                    if peek?.isWord(.while) == true {
                        index += 1
                        skip(where: \.isParenthesisGroup)
                        skip { $0.isPunctuator(.semicolon) }
                    }
                case .body:
                    break
                }
            }
            break
        }
        if index == first {
            // Never stay in place, whatever the input.
            index += 1
        }
        return Statement(kind: outermost ?? .other, first: first, end: index)
    }

    private var peek: OutlineItem? {
        index < items.count ? items[index] : nil
    }

    private func lookAhead(_ offset: Int) -> OutlineItem? {
        index + offset < items.count ? items[index + offset] : nil
    }

    private mutating func skip(where matches: (OutlineItem) -> Bool) {
        if let item = peek, matches(item) {
            index += 1
        }
    }

    /// Reads the start of a statement: a whole simple statement, or the head of a compound one
    /// whose inner statement comes next.
    private mutating func readHead() -> Head {
        guard let item = peek else { return .complete(.empty) }
        if item.isBraceGroup {
            index += 1
            return .complete(.other)
        }
        if item.isPunctuator(.semicolon) {
            index += 1
            return .complete(.empty)
        }
        guard item.isToken, let word = item.word else {
            if case .token(.identifier) = item.shape, lookAhead(1)?.isPunctuator(.colon) == true {
                index += 2
                return .needsBody(.body, .other)
            }
            skipSimpleStatement(startsWithKeyword: false)
            return .complete(.expression)
        }
        switch word {
        case .var, .const, .debugger:
            skipSimpleStatement(startsWithKeyword: true)
            return .complete(.other)
        case .let:
            guard let next = lookAhead(1), next.isName || next.isBracketGroup || next.isBraceGroup,
                  !next.isWord(.in), !next.isWord(.instanceof) else { break }
            skipSimpleStatement(startsWithKeyword: true)
            return .complete(.other)
        case .function:
            skipFunctionDeclaration()
            return .complete(.functionDeclaration)
        case .async:
            guard let next = lookAhead(1), next.isWord(.function), !next.isPrecededByLineBreak else { break }
            index += 1
            skipFunctionDeclaration()
            return .complete(.functionDeclaration)
        case .class:
            skipClassDeclaration()
            return .complete(.other)
        case .if:
            index += 1
            skip(where: \.isParenthesisGroup)
            return .needsBody(.ifBody, .other)
        case .for:
            index += 1
            skip { $0.isWord(.await) }
            skip(where: \.isParenthesisGroup)
            return .needsBody(.body, .other)
        case .while, .with:
            index += 1
            skip(where: \.isParenthesisGroup)
            return .needsBody(.body, .other)
        case .do:
            index += 1
            return .needsBody(.doBody, .other)
        case .try:
            index += 1
            skip(where: \.isBraceGroup)
            if peek?.isWord(.catch) == true {
                index += 1
                skip(where: \.isParenthesisGroup)
                skip(where: \.isBraceGroup)
            }
            if peek?.isWord(.finally) == true {
                index += 1
                skip(where: \.isBraceGroup)
            }
            return .complete(.other)
        case .switch:
            index += 1
            skip(where: \.isParenthesisGroup)
            skip(where: \.isBraceGroup)
            return .complete(.other)
        case .return, .throw, .break, .continue:
            if let next = lookAhead(1), !next.isPrecededByLineBreak {
                skipSimpleStatement(startsWithKeyword: true)
            } else {
                index += 1
            }
            return .complete(.other)
        case .import:
            if let next = lookAhead(1), next.isParenthesisGroup || next.isPunctuator(.dot) { break }
            skipSimpleStatement(startsWithKeyword: true)
            return .complete(.other)
        case .export:
            index += 1
            skip { $0.isWord(.default) }
            if peek?.isWord(.function) == true || (peek?.isWord(.async) == true && lookAhead(1)?.isWord(.function) == true) {
                skip { $0.isWord(.async) }
                skipFunctionDeclaration()
            } else if peek?.isWord(.class) == true {
                skipClassDeclaration()
            } else if peek != nil {
                skipSimpleStatement(startsWithKeyword: false)
            }
            return .complete(.other)
        case .else, .case, .default, .catch, .finally:
            index += 1
            return .complete(.other)
        default:
            if case .token(.identifier) = item.shape, lookAhead(1)?.isPunctuator(.colon) == true {
                index += 2
                return .needsBody(.body, .other)
            }
        }
        skipSimpleStatement(startsWithKeyword: false)
        return .complete(.expression)
    }

    /// `function`, an optional `*`, an optional name, the parameters and the body.
    private mutating func skipFunctionDeclaration() {
        index += 1
        skip { $0.isPunctuator(.star) }
        skip { $0.isName }
        skip(where: \.isParenthesisGroup)
        skip(where: \.isBraceGroup)
    }

    /// `class`, then everything up to and including the class body.
    private mutating func skipClassDeclaration() {
        index += 1
        while let item = peek {
            index += 1
            if item.isBraceGroup { return }
        }
    }

    /// Reads a statement that ends at `;`, at the end of the input or where automatic semicolon
    /// insertion ends it at a line break.
    ///
    /// - Parameter startsWithKeyword: The first item is a keyword after which the statement goes
    ///   on, even on the next line (`var`, `let`, `return` followed by an expression on its line).
    private mutating func skipSimpleStatement(startsWithKeyword: Bool) {
        var previousEndsOperand = false
        var previousIsArrowBody = false
        var isFirst = true
        while let item = peek {
            if item.isPunctuator(.semicolon) {
                index += 1
                return
            }
            if !isFirst, item.isPrecededByLineBreak {
                if previousEndsOperand, !item.continuesExpression(afterArrowBody: previousIsArrowBody) {
                    return
                }
                if (item.isPunctuator(.increment) || item.isPunctuator(.decrement)) && previousEndsOperand {
                    return
                }
            }
            let endsOperand = isFirst && startsWithKeyword ? false : item.endsOperand(afterOperand: previousEndsOperand)
            previousEndsOperand = endsOperand
            previousIsArrowBody = item.isArrowBody
            isFirst = false
            index += 1
        }
    }
}
