/// The words the lexer and the console rewrite treat specially: ECMAScript's reserved words and
/// the contextual words whose meaning depends on where they stand.
enum Keyword: UInt8, CaseIterable, Hashable, Sendable {
    case `await`, `break`, `case`, `catch`, `class`, `const`, `continue`, `debugger`, `default`
    case `delete`, `do`, `else`, `enum`, `export`, `extends`, `false`, `finally`, `for`
    case `function`, `if`, `import`, `in`, `instanceof`, `new`, `null`, `return`, `super`
    case `switch`, `this`, `throw`, `true`, `try`, `typeof`, `var`, `void`, `while`, `with`
    case `yield`, `let`, `static`
    case `async`, `of`, `get`, `set`

    /// The word's spelling.
    var spelling: String {
        String(describing: self)
    }

    /// Whether the word can be the shorthand property of an object literal (`{ let }` can,
    /// `{ if }` cannot). `await` and `yield` are refused because the code runs in an async
    /// function, where `{ await }` is an error either way.
    var canBeShorthandProperty: Bool {
        switch self {
        case .let, .static, .async, .of, .get, .set: true
        default: false
        }
    }

    /// Whether the word, as a whole expression, is a complete operand (`this`, `null`, ...), so
    /// that an expression may end after it.
    var isOperand: Bool {
        switch self {
        case .this, .super, .null, .true, .false, .let, .static, .async, .of, .get, .set, .import, .debugger: true
        default: false
        }
    }

    /// Looks up a word from the UTF-16 code units of an identifier without escapes.
    ///
    /// The words are short and lower-case ASCII, so each is packed into an integer, 5 bits a
    /// letter, and looked up in a small open-addressing table; anything longer than 10 units or
    /// not lower-case ASCII is not a word.
    static func lookUp(_ text: [UInt16], _ range: Range<Int>, in table: KeywordTable) -> Keyword? {
        let count = range.count
        guard count >= 2, count <= 10 else { return nil }
        var key: UInt64 = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let letter = text[index] &- 0x61
            guard letter < 26 else { return nil }
            key = key << 5 | UInt64(letter + 1)
            index += 1
        }
        return table.word(for: key)
    }

    static func packed(_ spelling: String) -> UInt64 {
        spelling.utf16.reduce(0) { $0 << 5 | UInt64($1 - 0x60) }
    }
}

/// The words by their packed spelling, in an open-addressing table of 128 slots (the 44 words
/// fill a third of it, so probes are short).
struct KeywordTable: Sendable {
    static let shared = KeywordTable()

    private var keys = [UInt64](repeating: 0, count: 128)
    private var words = [Keyword?](repeating: nil, count: 128)

    private init() {
        for word in Keyword.allCases {
            let key = Keyword.packed(word.spelling)
            var slot = Self.slot(for: key)
            while keys[slot] != 0 {
                slot = (slot + 1) & 127
            }
            keys[slot] = key
            words[slot] = word
        }
    }

    private static func slot(for key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    func word(for key: UInt64) -> Keyword? {
        var slot = Self.slot(for: key)
        while true {
            let stored = keys[slot]
            if stored == key { return words[slot] }
            if stored == 0 { return nil }
            slot = (slot + 1) & 127
        }
    }
}
