import Foundation

/// The character counts of the last two texts a ``TextFormat`` with a limit was given or
/// answered, so that the next keystroke counts only what it changes.
///
/// Counting the characters of a long text walks all of it, too slow for every keystroke. A
/// field's next edit is made to the text the format last answered (typing) or was last given (a
/// refused keystroke, a repeated check), so those two counts are kept; any other text is counted
/// once and remembered.
///
/// A text is recognised by its bytes, never by `==` (canonical equivalence would take "é" for
/// "e\u{301}", whose counts differ): the same buffer is recognised at once, another buffer of
/// the same length by `memcmp`. A text without contiguous UTF-8 storage (bridged from
/// `NSString`) is not recognised and is counted.
///
/// A format and its copies share one memo; the lock makes that safe across threads.
final class CharacterCountMemo: @unchecked Sendable {
    private struct Entry {
        let text: String
        let count: Int
    }

    private let lock = NSLock()
    private var recent: [Entry] = []

    /// The remembered character count of `text`, or `nil` when it is not one of the last two.
    func count(of text: String) -> Int? {
        let entries = lock.withLock { recent }
        return entries.first { Self.sameBytes(text, $0.text) }?.count
    }

    /// Remembers that `text` holds `count` characters, forgetting the oldest of the two kept.
    func remember(_ text: String, count: Int) {
        lock.withLock {
            recent.removeAll { Self.sameBytes(text, $0.text) }
            recent.insert(Entry(text: text, count: count), at: 0)
            if recent.count > 2 { recent.removeLast() }
        }
    }

    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        let compared = left.utf8.withContiguousStorageIfAvailable { mine in
            right.utf8.withContiguousStorageIfAvailable { theirs in
                guard mine.count == theirs.count else { return false }
                guard let leftBytes = mine.baseAddress, let rightBytes = theirs.baseAddress,
                      leftBytes != rightBytes
                else { return true }
                return memcmp(leftBytes, rightBytes, mine.count) == 0
            }
        }
        return (compared ?? nil) ?? false
    }
}
