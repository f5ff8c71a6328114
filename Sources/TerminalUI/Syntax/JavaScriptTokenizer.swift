/// A small JavaScript tokenizer for colouring, one line at a time.
///
/// It is not a parser: it finds keywords, literals, strings (including template literals with
/// nested `${ }`), numbers, comments (including multi-line ones) and regular expression
/// literals, which it recognises heuristically from the token before the `/`. Whatever it
/// does not recognise is plain text; a wrong guess only changes colours.
enum JavaScriptTokenizer {
    static let keywords: Set<String> = [
        "async", "await", "break", "case", "catch", "class", "const", "continue", "debugger",
        "default", "delete", "do", "else", "export", "extends", "finally", "for", "from",
        "function", "get", "if", "import", "in", "instanceof", "let", "new", "of", "return",
        "set", "static", "super", "switch", "this", "throw", "try", "typeof", "var", "void",
        "while", "with", "yield",
    ]

    static let literals: Set<String> = ["true", "false", "null", "undefined", "NaN", "Infinity"]

    /// Keywords after which an expression starts, so `/` begins a regular expression.
    private static let expressionKeywords: Set<String> = [
        "await", "case", "delete", "do", "else", "in", "instanceof", "new", "of", "return",
        "throw", "typeof", "void", "yield",
    ]

    /// Tokenizes one line that starts in `state`; returns its coloured spans and the state at
    /// its end.
    static func tokenize(_ line: [Character], from state: LexerState) -> (tokens: [SyntaxToken], end: LexerState) {
        var scanner = Scanner(line: line, state: state)
        scanner.run()
        // A line ends any string or regex, but code keeps its "expression may start" status:
        // after `return` on one line, a regex may start the next.
        return (scanner.tokens, scanner.state)
    }

    private struct Scanner {
        let line: [Character]
        var state: LexerState
        var tokens: [SyntaxToken] = []
        var index = 0

        init(line: [Character], state: LexerState) {
            self.line = line
            self.state = state
        }

        mutating func run() {
            while index < line.count {
                if state.inBlockComment {
                    scanBlockComment(from: index, searchingFrom: index)
                } else if state.contexts.last == .template {
                    scanTemplate()
                } else {
                    scanCode()
                }
            }
        }

        private func character(at offset: Int) -> Character? {
            offset < line.count ? line[offset] : nil
        }

        private mutating func emit(_ kind: SyntaxKind, _ range: Range<Int>) {
            guard kind != .plain, !range.isEmpty else { return }
            if let last = tokens.last, last.kind == kind, last.range.upperBound == range.lowerBound {
                tokens[tokens.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                tokens.append(SyntaxToken(kind: kind, range: range))
            }
        }

        private mutating func scanBlockComment(from start: Int, searchingFrom searchStart: Int) {
            var cursor = searchStart
            while cursor < line.count {
                if line[cursor] == "*", character(at: cursor + 1) == "/" {
                    emit(.comment, start..<cursor + 2)
                    index = cursor + 2
                    state.inBlockComment = false
                    return
                }
                cursor += 1
            }
            emit(.comment, start..<line.count)
            index = line.count
            state.inBlockComment = true
        }

        private mutating func scanTemplate() {
            let start = index
            var cursor = index
            while cursor < line.count {
                let current = line[cursor]
                if current == "\\" {
                    cursor += 2
                    continue
                }
                if current == "`" {
                    emit(.template, start..<cursor + 1)
                    state.contexts.removeLast()
                    state.regexAllowed = false
                    index = cursor + 1
                    return
                }
                if current == "$", character(at: cursor + 1) == "{" {
                    emit(.template, start..<cursor + 2)
                    state.contexts.append(.code(openBraces: 0))
                    state.regexAllowed = true
                    index = cursor + 2
                    return
                }
                cursor += 1
            }
            emit(.template, start..<line.count)
            index = line.count
        }

        private mutating func scanCode() {
            let current = line[index]
            let next = character(at: index + 1)
            if current.isWhitespace {
                index += 1
                return
            }
            if current == "/", next == "/" {
                emit(.comment, index..<line.count)
                index = line.count
                return
            }
            if current == "/", next == "*" {
                scanBlockComment(from: index, searchingFrom: index + 2)
                return
            }
            if current == "\"" || current == "'" {
                scanString(quote: current)
                return
            }
            if current == "`" {
                emit(.template, index..<index + 1)
                index += 1
                state.contexts.append(.template)
                return
            }
            if current.isNumber && current.isASCII || (current == "." && next.map { $0.isASCII && $0.isNumber } == true) {
                scanNumber()
                return
            }
            if Self.startsIdentifier(current) {
                scanIdentifier()
                return
            }
            if current == "/", state.regexAllowed, scanRegex() {
                return
            }
            scanPunctuation(current)
        }

        private mutating func scanString(quote: Character) {
            let start = index
            var cursor = index + 1
            while cursor < line.count {
                if line[cursor] == "\\" {
                    cursor += 2
                    continue
                }
                if line[cursor] == quote {
                    cursor += 1
                    break
                }
                cursor += 1
            }
            let end = min(cursor, line.count)
            emit(.string, start..<end)
            index = end
            state.regexAllowed = false
        }

        private mutating func scanNumber() {
            let start = index
            var cursor = index
            var previous: Character = " "
            let isHex = line[index] == "0" && (character(at: index + 1) == "x" || character(at: index + 1) == "X")
            while cursor < line.count {
                let current = line[cursor]
                let isExponentSign = (current == "+" || current == "-") && (previous == "e" || previous == "E") && !isHex
                guard current.isASCII, current.isLetter || current.isNumber || current == "_" || current == "." || isExponentSign else {
                    break
                }
                previous = current
                cursor += 1
            }
            emit(.number, start..<cursor)
            index = cursor
            state.regexAllowed = false
        }

        private mutating func scanIdentifier() {
            let start = index
            var cursor = index + 1
            while cursor < line.count, Self.continuesIdentifier(line[cursor]) {
                cursor += 1
            }
            let word = String(line[start..<cursor])
            index = cursor
            // A property name such as `x.return` is not a keyword.
            let isProperty = start > 0 && previousNonSpace(before: start) == "."
            if !isProperty, JavaScriptTokenizer.keywords.contains(word) {
                emit(.keyword, start..<cursor)
                state.regexAllowed = JavaScriptTokenizer.expressionKeywords.contains(word)
            } else if !isProperty, JavaScriptTokenizer.literals.contains(word) {
                emit(.literal, start..<cursor)
                state.regexAllowed = false
            } else {
                state.regexAllowed = false
            }
        }

        private func previousNonSpace(before offset: Int) -> Character? {
            var cursor = offset - 1
            while cursor >= 0 {
                if !line[cursor].isWhitespace { return line[cursor] }
                cursor -= 1
            }
            return nil
        }

        /// Scans `/…/flags` from `index`; returns false (and scans nothing) when the line
        /// holds no closing slash, in which case the `/` is an operator after all.
        private mutating func scanRegex() -> Bool {
            var cursor = index + 1
            var inClass = false
            while cursor < line.count {
                let current = line[cursor]
                if current == "\\" {
                    cursor += 2
                    continue
                }
                if current == "[" {
                    inClass = true
                } else if current == "]" {
                    inClass = false
                } else if current == "/", !inClass {
                    cursor += 1
                    while cursor < line.count, line[cursor].isASCII, line[cursor].isLetter {
                        cursor += 1
                    }
                    emit(.regex, index..<cursor)
                    index = cursor
                    state.regexAllowed = false
                    return true
                }
                cursor += 1
            }
            return false
        }

        private mutating func scanPunctuation(_ current: Character) {
            index += 1
            switch current {
            case "{":
                if case .code(let open) = state.contexts.last {
                    state.contexts[state.contexts.count - 1] = .code(openBraces: open + 1)
                }
                state.regexAllowed = true
            case "}":
                if case .code(let open) = state.contexts.last {
                    if open == 0, state.contexts.count > 1 {
                        // The end of a `${ }` substitution: back into the template text.
                        state.contexts.removeLast()
                        emit(.template, index - 1..<index)
                    } else {
                        state.contexts[state.contexts.count - 1] = .code(openBraces: max(0, open - 1))
                    }
                }
                state.regexAllowed = true
            case ")", "]":
                state.regexAllowed = false
            default:
                state.regexAllowed = true
            }
        }

        private static func startsIdentifier(_ character: Character) -> Bool {
            character == "_" || character == "$" || character.isLetter
        }

        private static func continuesIdentifier(_ character: Character) -> Bool {
            startsIdentifier(character) || character.isNumber
        }
    }
}
