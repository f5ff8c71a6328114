/// A `/regular expression/` from an `@include` or `@exclude` line, compiled to run on URLs the way
/// the userscript managers run it: `new RegExp(source, "i").test(url)`.
///
/// The text it runs on is the page's address as the browser reports it, in canonical form (see
/// ``PageURL/href``): always ASCII, so the expression is read and run on bytes. Flags that cannot
/// change the answer for such a text (`i`, `g`, `m`, `s`, `d`) are accepted; `u`, `v` and `y`,
/// which change how the expression reads or where it may match, are not.
struct URLRegex: Hashable, Sendable, CustomStringConvertible {
    /// The rule as written, slashes and flags included.
    let text: String
    /// The expression between the slashes.
    let source: String
    let node: RegexNode
    private let program: RegexProgram

    /// Reads `/source/flags`; throws when JavaScript would refuse it or PageScript cannot run it.
    init(_ written: String) throws(RegexSyntaxError) {
        guard let (source, flags) = Self.split(written) else {
            throw .invalid("it is not written as `/expression/`")
        }
        if let flag = flags.first(where: { !"dgims".contains($0) }) {
            throw .unsupported("the `\(flag)` flag changes how the expression is read, and the managers ignore flags")
        }
        text = written
        self.source = source
        node = try RegexParser.parse(source)
        program = try RegexProgram(node)
    }

    /// Whether `text` is written as a regular expression: `/.../`, optionally with flags.
    static func isRegularExpression(_ text: String) -> Bool {
        split(text) != nil
    }

    private static func split(_ text: String) -> (source: String, flags: Substring)? {
        guard text.hasPrefix("/"), let last = text.lastIndex(of: "/"), last > text.startIndex else { return nil }
        let flags = text[text.index(after: last)...]
        guard flags.allSatisfy({ "dgimsuvy".contains($0) }) else { return nil }
        return (String(text[text.index(after: text.startIndex)..<last]), flags)
    }

    /// Whether the expression matches somewhere in the ASCII text `subject`.
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        program.matches(subject)
    }

    /// Whether the expression matches somewhere in `subject`.
    func matches(_ subject: String) -> Bool {
        var copy = subject
        return copy.withUTF8 { matches($0) }
    }

    /// Whether the expression matches, decided by the NFA alone: tests compare it with the
    /// automaton that `matches(_:)` uses.
    func matchesWithoutAutomaton(_ subject: String) -> Bool {
        var copy = subject
        return copy.withUTF8 { program.matchesWithoutAutomaton($0) }
    }

    var description: String { text }

    static func == (lhs: URLRegex, rhs: URLRegex) -> Bool {
        lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}
