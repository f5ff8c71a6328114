/// The lines two texts share and the lines only one has, in order: a unified diff, by Myers'
/// O(ND) algorithm over whole lines.
///
/// Used to show "theirs" against "mine" when a save met a file someone else changed. Texts that
/// differ in more than ``editLimit`` lines are shown as all of one then all of the other, which
/// keeps a diff of two unrelated 10,000-line scripts from taking the editor's memory.
enum LineDiff {
    /// One line of the diff.
    struct Line: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            /// In both texts.
            case same
            /// Only in the first text (theirs).
            case removed
            /// Only in the second text (mine).
            case added
        }

        var kind: Kind
        var text: String
    }

    static let editLimit = 2_000

    /// The diff from `old` to `new`.
    static func lines(from old: [String], to new: [String]) -> [Line] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        var result = old[..<prefix].map { Line(kind: .same, text: $0) }
        result += middle(oldMiddle, newMiddle)
        result += old[(old.count - suffix)...].map { Line(kind: .same, text: $0) }
        return result
    }

    /// Myers' greedy algorithm, remembering each round's furthest points to walk back.
    private static func middle(_ old: [String], _ new: [String]) -> [Line] {
        let n = old.count
        let m = new.count
        if n == 0 { return new.map { Line(kind: .added, text: $0) } }
        if m == 0 { return old.map { Line(kind: .removed, text: $0) } }
        let limit = min(n + m, editLimit)
        let offset = limit + 1
        var furthest = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        for depth in 0...limit {
            trace.append(furthest)
            for diagonal in stride(from: -depth, through: depth, by: 2) {
                var x: Int
                if diagonal == -depth || (diagonal != depth && furthest[offset + diagonal - 1] < furthest[offset + diagonal + 1]) {
                    x = furthest[offset + diagonal + 1]
                } else {
                    x = furthest[offset + diagonal - 1] + 1
                }
                var y = x - diagonal
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                furthest[offset + diagonal] = x
                if x >= n, y >= m {
                    found = true
                    break
                }
            }
            if found { break }
        }
        guard found else {
            return old.map { Line(kind: .removed, text: $0) } + new.map { Line(kind: .added, text: $0) }
        }
        var x = n
        var y = m
        var reversed: [Line] = []
        for depth in stride(from: trace.count - 1, through: 0, by: -1) {
            let previous = trace[depth]
            let diagonal = x - y
            let previousDiagonal: Int
            if diagonal == -depth || (diagonal != depth && previous[offset + diagonal - 1] < previous[offset + diagonal + 1]) {
                previousDiagonal = diagonal + 1
            } else {
                previousDiagonal = diagonal - 1
            }
            let previousX = previous[offset + previousDiagonal]
            let previousY = previousX - previousDiagonal
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                reversed.append(Line(kind: .same, text: old[x]))
            }
            if depth > 0 {
                if x == previousX {
                    y -= 1
                    reversed.append(Line(kind: .added, text: new[y]))
                } else {
                    x -= 1
                    reversed.append(Line(kind: .removed, text: old[x]))
                }
            }
        }
        return reversed.reversed()
    }
}
