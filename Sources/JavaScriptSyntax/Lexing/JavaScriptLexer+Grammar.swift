/// The little of JavaScript's grammar the lexer follows to read `/` and `}` right: which
/// brackets are open and what each is (a condition, parameters, a block, a function body, an
/// object literal, a class body), and what the previous token leaves expected.
extension JavaScriptLexer {
    /// Statements are read directly here: at the top level, in a block or a function body.
    private var holdsStatements: Bool {
        state.innermost.contains(.holdsStatements)
    }

    private var isInObjectLiteral: Bool {
        state.innermost.contains(.objectLiteral)
    }

    private var isInClassBody: Bool {
        state.innermost.contains(.classBody)
    }

    private var isInForHeader: Bool {
        state.innermost.contains(.forHeader)
    }

    private var isAtPropertyName: Bool {
        switch state.level.property {
        case .key, .afterKey: true
        case .none, .value: false
        }
    }

    /// Whether the token about to be read starts a statement: where a statement is expected, or
    /// on a new line after a complete operand or a restricted keyword (automatic semicolon
    /// insertion).
    private func startsStatement(lineBreak: Bool) -> Bool {
        guard holdsStatements else { return false }
        switch state.level.expected {
        case .statement: return true
        case .operator, .afterArrowBody, .restricted: return lineBreak
        case .expression, .arrowBody, .functionBody: return false
        }
    }

    /// In a class body, a new line after a field's complete initializer starts the next member.
    private mutating func startMemberAfterField(lineBreak: Bool) {
        guard lineBreak, isInClassBody, state.level.property == .value else { return }
        switch state.level.expected {
        case .operator, .afterArrowBody: state.level.property = .key
        default: break
        }
    }

    /// Forgets what only the very next token could use.
    private mutating func clearOneTokenFlags() {
        state.level.isMemberName = false
        state.level.isGuess = false
        state.level.pendingCondition = nil
        state.level.pendingFunction = nil
        state.level.asyncStartsStatement = false
    }

    // MARK: - Operands and words

    /// A literal, a template or a private name was read.
    mutating func noteOperand(lineBreak: Bool) {
        startMemberAfterField(lineBreak: lineBreak)
        clearOneTokenFlags()
        if isAtPropertyName {
            state.level.property = .afterKey(isStatic: false)
        }
        state.level.expected = .operator
    }

    /// A name was read (`word` when it spells a reserved or contextual word without escapes).
    ///
    /// - Returns: Whether the token is a keyword or an identifier here.
    mutating func noteWord(_ word: Keyword?, lineBreak: Bool) -> JavaScriptToken.Kind {
        let level = state.level
        if level.pendingFunction != nil, word != .function {
            // The function's name: keep waiting for its parameters.
            state.level.isGuess = false
            return .identifier
        }
        if level.isMemberName {
            clearOneTokenFlags()
            state.level.expected = .operator
            return .identifier
        }
        startMemberAfterField(lineBreak: lineBreak)
        if isAtPropertyName {
            let isStatic = word == .static && state.level.property == .key && isInClassBody
            clearOneTokenFlags()
            state.level.property = .afterKey(isStatic: isStatic)
            state.level.expected = .operator
            return .identifier
        }
        let startsStatement = startsStatement(lineBreak: lineBreak)
        let followsAsync = level.asyncStartsStatement && !lineBreak
        let forCondition = level.pendingCondition == .for ? ConditionKeyword.for : nil
        clearOneTokenFlags()
        guard let word else {
            state.level.expected = .operator
            return .identifier
        }
        switch word {
        case .async:
            state.level.asyncStartsStatement = startsStatement
            state.level.expected = .operator
            return .identifier
        case .of:
            if isInForHeader, level.expected == .operator {
                state.level.expected = .expression
                state.level.isGuess = true
            } else {
                state.level.expected = .operator
            }
            return .identifier
        case .get, .set, .static:
            state.level.expected = .operator
            return .identifier
        case .let:
            if startsStatement || (isInForHeader && level.expected == .expression) {
                // Probably a declaration, but `let / 2` divides a variable named `let` in sloppy code.
                state.level.expected = .expression
                state.level.isGuess = true
                return .keyword
            }
            state.level.expected = .operator
            return .identifier
        case .function:
            state.level.pendingFunction = startsStatement || followsAsync ? .declaration : .expression
            state.level.expected = .expression
        case .class:
            state.level.pendingClass = startsStatement
            state.level.expected = .expression
        case .if: noteCondition(.if)
        case .while: noteCondition(.while)
        case .for: noteCondition(.for)
        case .with: noteCondition(.with)
        case .switch: noteCondition(.switch)
        case .catch: noteCondition(.catch)
        case .else, .do, .try, .finally, .export:
            state.level.expected = .statement
        case .return, .throw, .break, .continue:
            state.level.expected = .restricted
        case .yield:
            state.level.expected = .restricted
            state.level.isGuess = true
        case .await:
            state.level.expected = .expression
            state.level.isGuess = true
            state.level.pendingCondition = forCondition
        case .typeof, .void, .delete, .new, .in, .instanceof, .case, .extends, .default, .var, .const:
            state.level.expected = .expression
        case .this, .super, .null, .true, .false, .import, .debugger, .enum:
            state.level.expected = .operator
        }
        return .keyword
    }

    private mutating func noteCondition(_ keyword: ConditionKeyword) {
        state.level.pendingCondition = keyword
        state.level.expected = .statement
    }

    // MARK: - Punctuators

    /// A punctuator was read at `position`.
    mutating func notePunctuator(_ punctuator: Punctuator, at position: SourcePosition, lineBreak: Bool) {
        if punctuator == .openBracket || punctuator == .star || punctuator == .at {
            startMemberAfterField(lineBreak: lineBreak)
        }
        let level = state.level
        switch punctuator {
        case .openParenthesis:
            let role: ParenthesisRole
            if let function = level.pendingFunction {
                role = .parameters(function)
            } else if let keyword = level.pendingCondition {
                role = .condition(keyword)
            } else if case .afterKey = level.property {
                role = .parameters(.method)
            } else {
                role = .expression
            }
            clearOneTokenFlags()
            openContext(.parenthesis(role), at: position)
        case .openBracket:
            let isComputedKey = isAtPropertyName
            clearOneTokenFlags()
            openContext(.bracket(isComputedKey: isComputedKey), at: position)
        case .openBrace:
            let role = braceRole(lineBreak: lineBreak)
            clearOneTokenFlags()
            if case .classBody = role {
                state.level.pendingClass = nil
            }
            openContext(.brace(role), at: position)
        case .closeParenthesis, .closeBracket, .closeBrace:
            close(punctuator, at: position)
        case .semicolon:
            clearOneTokenFlags()
            if holdsStatements {
                state.level.expected = .statement
                state.level.openConditionals = 0
            } else if isInClassBody {
                state.level.property = .key
                state.level.expected = .statement
            } else {
                state.level.expected = .expression
            }
        case .comma:
            clearOneTokenFlags()
            if isInObjectLiteral || isInClassBody {
                state.level.property = .key
            }
            state.level.expected = .expression
        case .colon:
            clearOneTokenFlags()
            if isInObjectLiteral, case .afterKey = level.property {
                state.level.property = .value
                state.level.expected = .expression
            } else if level.openConditionals > 0 {
                state.level.openConditionals -= 1
                state.level.expected = .expression
            } else {
                state.level.expected = holdsStatements ? .statement : .expression
            }
        case .questionMark:
            clearOneTokenFlags()
            state.level.openConditionals += 1
            state.level.expected = .expression
        case .arrow:
            clearOneTokenFlags()
            state.level.expected = .arrowBody
        case .dot, .optionalChaining:
            clearOneTokenFlags()
            state.level.isMemberName = true
            state.level.expected = .operator
        case .increment, .decrement:
            let isPostfix = !lineBreak && (level.expected == .operator || level.expected == .afterArrowBody)
            clearOneTokenFlags()
            state.level.expected = isPostfix ? .operator : .expression
        case .assign:
            clearOneTokenFlags()
            if case .afterKey = level.property {
                state.level.property = .value
            }
            state.level.expected = .expression
        case .star:
            if level.pendingFunction != nil {
                state.level.isGuess = false
                return
            }
            clearOneTokenFlags()
            if isAtPropertyName {
                state.level.property = .key
            }
            state.level.expected = .expression
        case .ellipsis:
            clearOneTokenFlags()
            if level.property == .key {
                state.level.property = .value
            }
            state.level.expected = .expression
        default:
            clearOneTokenFlags()
            state.level.expected = .expression
        }
    }

    /// What a `{` read now opens.
    private func braceRole(lineBreak: Bool) -> BraceRole {
        let level = state.level
        switch level.expected {
        case .functionBody(let role): return .function(role)
        case .arrowBody: return .function(.arrow)
        default: break
        }
        if let isDeclaration = level.pendingClass {
            return .classBody(isDeclaration: isDeclaration)
        }
        switch level.property {
        case .afterKey(isStatic: true) where isInClassBody: return .function(.staticBlock)
        case .key, .afterKey: return .block
        case .none, .value: break
        }
        if startsStatement(lineBreak: lineBreak) {
            return .block
        }
        switch level.expected {
        case .statement, .operator: return .block
        default: return .object
        }
    }

    // MARK: - Opening and closing

    /// Opens `kind` at `position`, keeping the level around it to restore when it closes.
    mutating func openContext(_ kind: ContextKind, at position: SourcePosition) {
        var inner = SyntaxLevel()
        switch kind {
        case .parenthesis, .bracket, .substitution:
            inner.expected = .expression
        case .brace(.object):
            inner.expected = .expression
            inner.property = .key
        case .brace(.classBody):
            inner.property = .key
            state.functionDepth += 1
        case .brace(.function):
            state.functionDepth += 1
        case .brace(.block), .template:
            break
        }
        state.contexts.append(SyntaxContext(kind: kind, saved: state.level))
        openerPositions.append(position)
        state.level = inner
    }

    /// Removes the innermost context and restores the level around it.
    @discardableResult
    private mutating func popContext() -> ContextKind {
        let context = state.contexts.removeLast()
        openerPositions.removeLast()
        state.level = context.saved
        switch context.kind {
        case .brace(.function), .brace(.classBody): state.functionDepth -= 1
        default: break
        }
        return context.kind
    }

    mutating func closeSubstitution() {
        popContext()
    }

    mutating func closeTemplate() {
        popContext()
    }

    private static func closes(_ punctuator: Punctuator, _ kind: ContextKind) -> Bool {
        switch (punctuator, kind) {
        case (.closeParenthesis, .parenthesis), (.closeBracket, .bracket), (.closeBrace, .brace): true
        default: false
        }
    }

    private static func spelling(_ punctuator: Punctuator) -> String {
        switch punctuator {
        case .closeParenthesis: ")"
        case .closeBracket: "]"
        default: "}"
        }
    }

    /// Closes the innermost context with `punctuator`, or reports a closer that closes nothing or
    /// the wrong bracket (and then recovers by closing up to a matching bracket when there is
    /// one, so that colouring goes on sensibly).
    private mutating func close(_ punctuator: Punctuator, at position: SourcePosition) {
        let spelled = Self.spelling(punctuator)
        guard let top = state.contexts.last else {
            report(.unexpectedToken, "Unexpected token '\(spelled)': there is no open '\(Self.opener(for: punctuator))' for it to close", at: position)
            clearOneTokenFlags()
            state.level.expected = .operator
            return
        }
        guard Self.closes(punctuator, top.kind) else {
            var message = "Unexpected token '\(spelled)': expected '\(top.kind.closer)'"
            if let opened = openerPositions.last ?? nil {
                message += " to close the '\(top.kind.opener)' at \(opened)"
            }
            report(.unexpectedToken, message, at: position)
            if let match = state.contexts.lastIndex(where: { Self.closes(punctuator, $0.kind) }) {
                while state.contexts.count > match + 1 {
                    popContext()
                }
                finishClosing(popContext())
            }
            return
        }
        finishClosing(popContext())
    }

    private static func opener(for punctuator: Punctuator) -> String {
        switch punctuator {
        case .closeParenthesis: "("
        case .closeBracket: "["
        default: "{"
        }
    }

    /// Sets what follows a closed context, in the level around it.
    private mutating func finishClosing(_ kind: ContextKind) {
        clearOneTokenFlags()
        switch kind {
        case .parenthesis(.condition):
            state.level.expected = .statement
        case .parenthesis(.parameters(let role)):
            state.level.expected = .functionBody(role)
        case .bracket(isComputedKey: true):
            state.level.property = .afterKey(isStatic: false)
            state.level.expected = .operator
        case .brace(.block), .brace(.function(.declaration)), .brace(.classBody(isDeclaration: true)):
            state.level.expected = .statement
            state.level.isGuess = true
        case .brace(.function(.arrow)):
            state.level.expected = .afterArrowBody
        case .brace(.function(.method)), .brace(.function(.staticBlock)):
            if isInObjectLiteral {
                state.level.property = .value
                state.level.expected = .operator
            } else {
                state.level.property = .key
                state.level.expected = .statement
            }
        case .parenthesis(.expression), .bracket(isComputedKey: false), .brace(.function(.expression)),
             .brace(.classBody(isDeclaration: false)), .brace(.object), .substitution, .template:
            state.level.expected = .operator
        }
    }
}
