import Foundation

extension String {
    /// Whether two strings hold exactly the same code units.
    ///
    /// `==` compares strings by canonical equivalence, so "é" equals "e\u{301}": right for
    /// values, wrong for asking whether a field shows a given text, and slow on long
    /// non-ASCII strings (it normalises as it goes). This compares the UTF-8 bytes with
    /// `memcmp` when both strings are native, and falls back to `==` otherwise (bridged
    /// strings, where the system compares).
    func isIdentical(to other: String) -> Bool {
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                guard mine.count == theirs.count else { return false }
                guard let left = mine.baseAddress, let right = theirs.baseAddress else { return true }
                return memcmp(left, right, mine.count) == 0
            }
        }
        if let compared = compared ?? nil { return compared }
        return self == other
    }
}
