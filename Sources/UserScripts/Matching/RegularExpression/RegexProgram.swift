/// A parsed regular expression compiled to a small automaton and run without backtracking.
///
/// The program is a Thompson NFA: every input byte is read once while a set of live states moves
/// forward, so a URL is decided in time proportional to its length times the program's size, and
/// no expression can make a lookup slow however it is written (`(a+)+$` included). Only whether
/// the expression matches is computed; captures are never needed to decide where a script runs.
/// Programs without lookaheads and word boundaries run on a ``RegexDFA`` built from it as it is
/// used, at one table read per byte.
final class RegexProgram: Sendable {
    enum Instruction: Sendable {
        /// Read one byte from the set, then go on at the index.
        case byte(ASCIISet, Int)
        /// Go on at both indexes.
        case split(Int, Int)
        /// Go on at the index if the position passes the test.
        case assertion(RegexAssertion, Int)
        /// Go on at the index if the lookahead program matches here (or, `negated`, does not).
        case lookahead(RegexProgram, negated: Bool, Int)
        case match
    }

    /// Programs beyond this size are refused: no URL rule needs them, and they would cost memory.
    static let largestSize = 20_000

    private let instructions: [Instruction]
    private let start: Int
    /// Whether every path starts with `^`: then a search never needs to start past position 0.
    private let isAnchored: Bool
    private let automaton: RegexDFA?

    /// Compiles `node`; throws when the program would exceed ``largestSize``.
    init(_ node: RegexNode) throws(RegexSyntaxError) {
        var builder = Builder()
        builder.instructions.append(.match)
        start = try builder.compile(node, then: 0)
        instructions = builder.instructions
        isAnchored = Self.startsWithAnchor(node)
        automaton = RegexDFA(instructions: instructions, start: start, searching: !isAnchored)
    }

    /// Whether the expression matches somewhere in `subject` (what `RegExp.prototype.test` answers).
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if let answer = automaton?.matches(subject) { return answer }
        return run(subject, from: 0, searching: !isAnchored)
    }

    /// Whether the expression matches, always decided by the NFA (to check the automaton).
    func matchesWithoutAutomaton(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        run(subject, from: 0, searching: !isAnchored)
    }

    /// Whether the expression matches starting exactly at `position` (a lookahead's question).
    private func matches(_ subject: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        run(subject, from: position, searching: false)
    }

    private func run(_ subject: UnsafeBufferPointer<UInt8>, from first: Int, searching: Bool) -> Bool {
        var marks = [Int](repeating: -1, count: instructions.count)
        var current: [Int] = []
        var next: [Int] = []
        current.reserveCapacity(16)
        next.reserveCapacity(16)
        var stack: [Int] = []
        if addClosure(start, at: first, subject, into: &current, marks: &marks, stack: &stack) { return true }
        var position = first
        while position < subject.count {
            let byte = subject[position]
            next.removeAll(keepingCapacity: true)
            for state in current {
                guard case .byte(let set, let target) = instructions[state], set.contains(byte) else { continue }
                if addClosure(target, at: position + 1, subject, into: &next, marks: &marks, stack: &stack) { return true }
            }
            if searching, addClosure(start, at: position + 1, subject, into: &next, marks: &marks, stack: &stack) { return true }
            if next.isEmpty, !searching { return false }
            swap(&current, &next)
            position += 1
        }
        return false
    }

    /// Adds `state` and everything reachable from it without reading a byte; returns `true` as
    /// soon as the match state is reached.
    private func addClosure(
        _ state: Int, at position: Int, _ subject: UnsafeBufferPointer<UInt8>,
        into list: inout [Int], marks: inout [Int], stack: inout [Int]
    ) -> Bool {
        stack.append(state)
        while let index = stack.popLast() {
            guard marks[index] != position else { continue }
            marks[index] = position
            switch instructions[index] {
            case .byte:
                list.append(index)
            case .match:
                stack.removeAll(keepingCapacity: true)
                return true
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertion(let assertion, let target):
                if Self.holds(assertion, at: position, subject) { stack.append(target) }
            case .lookahead(let program, let negated, let target):
                if program.matches(subject, at: position) != negated { stack.append(target) }
            }
        }
        return false
    }

    private static func holds(_ assertion: RegexAssertion, at position: Int, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == subject.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && ASCIISet.wordCharacters.contains(subject[position - 1])
            let after = position < subject.count && ASCIISet.wordCharacters.contains(subject[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    private static func startsWithAnchor(_ node: RegexNode) -> Bool {
        switch node {
        case .assertion(.start): true
        case .sequence(let parts): parts.first.map(startsWithAnchor) ?? false
        case .group(let inner): startsWithAnchor(inner)
        case .alternation(let alternatives): alternatives.allSatisfy(startsWithAnchor)
        default: false
        }
    }

    /// Builds the program backwards: each node is compiled knowing where control goes after it,
    /// so no jump ever has to be patched except a loop's own entry.
    private struct Builder {
        var instructions: [Instruction] = []

        mutating func append(_ instruction: Instruction) throws(RegexSyntaxError) -> Int {
            guard instructions.count < RegexProgram.largestSize else {
                throw .unsupported("it is too large to run (more than \(RegexProgram.largestSize) steps once its repetitions are spelled out)")
            }
            instructions.append(instruction)
            return instructions.count - 1
        }

        mutating func compile(_ node: RegexNode, then next: Int) throws(RegexSyntaxError) -> Int {
            switch node {
            case .empty:
                return next
            case .characters(let set):
                return try append(.byte(set, next))
            case .sequence(let parts):
                var entry = next
                for part in parts.reversed() { entry = try compile(part, then: entry) }
                return entry
            case .alternation(let alternatives):
                var entries: [Int] = []
                for alternative in alternatives { entries.append(try compile(alternative, then: next)) }
                var entry = entries[entries.count - 1]
                for alternative in entries.dropLast().reversed() { entry = try append(.split(alternative, entry)) }
                return entry
            case .group(let inner):
                return try compile(inner, then: next)
            case .repetition(let inner, let minimum, let maximum):
                var entry = next
                if let maximum {
                    for _ in 0..<(maximum - minimum) {
                        let body = try compile(inner, then: entry)
                        entry = try append(.split(body, entry))
                    }
                } else {
                    let loop = try append(.match)
                    let body = try compile(inner, then: loop)
                    instructions[loop] = .split(body, entry)
                    entry = loop
                }
                for _ in 0..<minimum { entry = try compile(inner, then: entry) }
                return entry
            case .assertion(let assertion):
                return try append(.assertion(assertion, next))
            case .lookahead(let inner, let negated):
                return try append(.lookahead(try RegexProgram(inner), negated: negated, next))
            }
        }
    }
}
