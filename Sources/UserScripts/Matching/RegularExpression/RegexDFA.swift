import Foundation

/// A deterministic automaton built from a ``RegexProgram`` as it is used: each state is a set of
/// the program's states, and each transition is worked out the first time a byte of its class
/// meets it, then read from a table.
///
/// Deciding a URL then costs one table read per byte, whatever the expression, which is what
/// keeps a lookup among thousands of scripts with expressions in the microseconds. Only programs
/// without lookaheads and word boundaries are run this way (their answer at a position depends on
/// more than the set of live states); `^` and `$` are handled: `^` holds only in the first state,
/// and a `$` waits in a state until the end of the text. When an expression would need more than
/// ``largestStateCount`` states, the automaton gives up and the program runs as an NFA.
final class RegexDFA: @unchecked Sendable {
    static let largestStateCount = 512

    private struct State {
        /// Program states, sorted: byte readers, `$` tests waiting for the end, and the match.
        let members: [Int]
        let isAccepting: Bool
    }

    private let instructions: [RegexProgram.Instruction]
    private let start: Int
    private let searching: Bool

    /// Guards what is built as it is used: matchers are shared between threads.
    private let lock = NSLock()
    /// Each ASCII byte's class: bytes every set of the program treats alike share one. Worked
    /// out on the first match, so that loading a library with thousands of expressions, of which
    /// a page checks a few, costs nothing here.
    private var classOf: [UInt8] = []
    private var classCount = 0
    /// One byte of each class, to work out the class's transitions.
    private var representatives: [UInt8] = []
    private var states: [State] = []
    private var stateIDs: [[Int]: Int32] = [:]
    /// `states.count * classCount` entries; -1 until worked out.
    private var transitions: [Int32] = []
    private var initial: Int32 = -1
    private var gaveUp = false

    /// An automaton for `instructions`, or `nil` when the program needs the NFA.
    init?(instructions: [RegexProgram.Instruction], start: Int, searching: Bool) {
        for instruction in instructions {
            switch instruction {
            case .lookahead, .assertion(.wordBoundary, _), .assertion(.notWordBoundary, _): return nil
            case .byte, .split, .assertion, .match: break
            }
        }
        self.instructions = instructions
        self.start = start
        self.searching = searching
    }

    /// Splits the ASCII bytes into classes by refining one class with each byte set of the
    /// program in turn: two bytes share a class when every set holds both or neither.
    private func workOutByteClasses() {
        var classOf = [UInt8](repeating: 0, count: 128)
        var classCount = 1
        for instruction in instructions {
            guard case .byte(let set, _) = instruction else { continue }
            var renumbered = [Int16](repeating: -1, count: classCount * 2)
            var count = 0
            for byte in 0..<128 {
                let key = Int(classOf[byte]) * 2 + (set.contains(UInt8(byte)) ? 1 : 0)
                if renumbered[key] < 0 {
                    renumbered[key] = Int16(count)
                    count += 1
                }
                classOf[byte] = UInt8(renumbered[key])
            }
            classCount = count
        }
        var representatives = [UInt8](repeating: 0, count: classCount)
        var seen = [Bool](repeating: false, count: classCount)
        for byte in 0..<128 where !seen[Int(classOf[byte])] {
            seen[Int(classOf[byte])] = true
            representatives[Int(classOf[byte])] = UInt8(byte)
        }
        self.classOf = classOf
        self.classCount = classCount
        self.representatives = representatives
    }

    /// Whether the expression matches somewhere in the ASCII `subject`; `nil` when the automaton
    /// has given up and the NFA must answer.
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        guard !gaveUp else { return nil }
        if initial < 0 {
            workOutByteClasses()
            guard let first = state(for: closure(of: [start], atStart: true)) else { return nil }
            initial = first
        }
        var current = initial
        if states[Int(current)].isAccepting { return true }
        for byte in subject {
            // A byte outside ASCII is in no set: no state reads it.
            guard byte < 128 else {
                guard searching, let restart = state(for: closure(of: [start], atStart: false)) else { return false }
                current = restart
                continue
            }
            let slot = Int(current) * classCount + Int(classOf[Int(byte)])
            var next = transitions[slot]
            if next < 0 {
                guard let computed = transition(from: current, reading: representatives[Int(classOf[Int(byte)])]) else { return nil }
                transitions[slot] = computed
                next = computed
            }
            current = next
            if states[Int(current)].isAccepting { return true }
            if !searching, states[Int(current)].members.isEmpty { return false }
        }
        return acceptsAtEnd(states[Int(current)], subjectIsEmpty: subject.isEmpty)
    }

    private func transition(from state: Int32, reading byte: UInt8) -> Int32? {
        var targets: [Int] = []
        for member in states[Int(state)].members {
            if case .byte(let set, let target) = instructions[member], set.contains(byte) { targets.append(target) }
        }
        if searching { targets.append(start) }
        return self.state(for: closure(of: targets, atStart: false))
    }

    /// The program states reachable from `roots` without reading a byte, where `^` holds only at
    /// the start and `$` waits.
    private func closure(of roots: [Int], atStart: Bool, atEnd: Bool = false) -> [Int] {
        var seen = Set<Int>()
        var members: [Int] = []
        var stack = roots.reversed() as [Int]
        while let index = stack.popLast() {
            guard seen.insert(index).inserted else { continue }
            switch instructions[index] {
            case .byte, .match:
                members.append(index)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertion(.start, let target):
                if atStart { stack.append(target) }
            case .assertion(.end, let target):
                if atEnd { stack.append(target) } else { members.append(index) }
            case .assertion, .lookahead:
                break
            }
        }
        return members.sorted()
    }

    private func state(for members: [Int]) -> Int32? {
        if let existing = stateIDs[members] { return existing }
        guard states.count < Self.largestStateCount else {
            gaveUp = true
            return nil
        }
        let id = Int32(states.count)
        let isAccepting = members.contains { if case .match = instructions[$0] { true } else { false } }
        states.append(State(members: members, isAccepting: isAccepting))
        stateIDs[members] = id
        transitions.append(contentsOf: repeatElement(-1, count: classCount))
        return id
    }

    /// Whether a `$` waiting in `state` leads to the match at the end of the text.
    private func acceptsAtEnd(_ state: State, subjectIsEmpty: Bool) -> Bool {
        let waiting = state.members.compactMap { member -> Int? in
            if case .assertion(.end, let target) = instructions[member] { return target }
            return nil
        }
        guard !waiting.isEmpty else { return false }
        return closure(of: waiting, atStart: subjectIsEmpty, atEnd: true).contains { if case .match = instructions[$0] { true } else { false } }
    }
}
