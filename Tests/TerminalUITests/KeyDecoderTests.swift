import Testing
@testable import TerminalUI

@Suite("Key decoder")
struct KeyDecoderTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let expected: [InputEvent]
        var testDescription: String { name }
    }

    static func key(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent {
        .key(KeyEvent(key, modifiers))
    }

    static let vectors: [Vector] = [
        Vector(name: "ASCII letters", bytes: Array("ab".utf8), expected: [key(.character("a")), key(.character("b"))]),
        Vector(name: "Enter is CR", bytes: [0x0D], expected: [key(.enter)]),
        Vector(name: "Tab", bytes: [0x09], expected: [key(.tab)]),
        Vector(name: "Backspace is DEL", bytes: [0x7F], expected: [key(.backspace)]),
        Vector(name: "Ctrl-A", bytes: [0x01], expected: [key(.character("a"), .control)]),
        Vector(name: "Ctrl-Q", bytes: [0x11], expected: [key(.character("q"), .control)]),
        Vector(name: "Ctrl-Z", bytes: [0x1A], expected: [key(.character("z"), .control)]),
        Vector(name: "Ctrl-Space", bytes: [0x00], expected: [key(.character(" "), .control)]),
        Vector(name: "Ctrl-backslash", bytes: [0x1C], expected: [key(.character("\\"), .control)]),
        Vector(name: "Up", bytes: [0x1B, 0x5B, 0x41], expected: [key(.up)]),
        Vector(name: "Down", bytes: [0x1B, 0x5B, 0x42], expected: [key(.down)]),
        Vector(name: "Right", bytes: [0x1B, 0x5B, 0x43], expected: [key(.right)]),
        Vector(name: "Left", bytes: [0x1B, 0x5B, 0x44], expected: [key(.left)]),
        Vector(name: "SS3 Up (application mode)", bytes: [0x1B, 0x4F, 0x41], expected: [key(.up)]),
        Vector(name: "Home CSI H", bytes: [0x1B, 0x5B, 0x48], expected: [key(.home)]),
        Vector(name: "End CSI F", bytes: [0x1B, 0x5B, 0x46], expected: [key(.end)]),
        Vector(name: "Home CSI 1~", bytes: Array("\u{1B}[1~".utf8), expected: [key(.home)]),
        Vector(name: "End CSI 4~", bytes: Array("\u{1B}[4~".utf8), expected: [key(.end)]),
        Vector(name: "Home rxvt 7~", bytes: Array("\u{1B}[7~".utf8), expected: [key(.home)]),
        Vector(name: "Delete", bytes: Array("\u{1B}[3~".utf8), expected: [key(.delete)]),
        Vector(name: "Page Up", bytes: Array("\u{1B}[5~".utf8), expected: [key(.pageUp)]),
        Vector(name: "Page Down", bytes: Array("\u{1B}[6~".utf8), expected: [key(.pageDown)]),
        Vector(name: "Shift-Right", bytes: Array("\u{1B}[1;2C".utf8), expected: [key(.right, .shift)]),
        Vector(name: "Ctrl-Left", bytes: Array("\u{1B}[1;5D".utf8), expected: [key(.left, .control)]),
        Vector(name: "Alt-Right", bytes: Array("\u{1B}[1;3C".utf8), expected: [key(.right, .alt)]),
        Vector(name: "Ctrl-Shift-Left", bytes: Array("\u{1B}[1;6D".utf8), expected: [key(.left, [.control, .shift])]),
        Vector(name: "Shift-End", bytes: Array("\u{1B}[1;2F".utf8), expected: [key(.end, .shift)]),
        Vector(name: "Ctrl-Delete", bytes: Array("\u{1B}[3;5~".utf8), expected: [key(.delete, .control)]),
        Vector(name: "Shift-Tab", bytes: Array("\u{1B}[Z".utf8), expected: [key(.backTab)]),
        Vector(name: "F5", bytes: Array("\u{1B}[15~".utf8), expected: [key(.function(5))]),
        Vector(name: "Alt-b", bytes: [0x1B, 0x62], expected: [key(.character("b"), .alt)]),
        Vector(name: "Alt-Backspace", bytes: [0x1B, 0x7F], expected: [key(.backspace, .alt)]),
        Vector(name: "Esc Esc is one Esc, the second pending", bytes: [0x1B, 0x1B], expected: [key(.escape)]),
        Vector(name: "Esc then Ctrl-S typed quickly is two keys", bytes: [0x1B, 0x13], expected: [key(.escape), key(.character("s"), .control)]),
        Vector(name: "Esc then Enter typed quickly is two keys", bytes: [0x1B, 0x0D], expected: [key(.escape), key(.enter)]),
        Vector(name: "two-byte UTF-8", bytes: [0xC3, 0xA9], expected: [key(.character("é"))]),
        Vector(name: "three-byte UTF-8 (CJK)", bytes: [0xE6, 0x97, 0xA5], expected: [key(.character("日"))]),
        Vector(name: "four-byte UTF-8 (emoji)", bytes: [0xF0, 0x9F, 0x8E, 0x89], expected: [key(.character("🎉"))]),
        Vector(name: "invalid lead byte", bytes: [0xFF, 0x61], expected: [key(.character("\u{FFFD}")), key(.character("a"))]),
        Vector(name: "truncated sequence then ASCII", bytes: [0xE6, 0x61], expected: [key(.character("\u{FFFD}")), key(.character("a"))]),
        Vector(name: "mouse report is ignored", bytes: Array("\u{1B}[<0;10;5Mx".utf8), expected: [key(.character("x"))]),
        Vector(name: "unknown CSI is ignored", bytes: Array("\u{1B}[99zq".utf8), expected: [key(.character("q"))]),
        Vector(name: "stray paste end is ignored", bytes: Array("\u{1B}[201~k".utf8), expected: [key(.character("k"))]),
        Vector(name: "CSI u Ctrl-Enter", bytes: Array("\u{1B}[13;5u".utf8), expected: [key(.enter, .control)]),
    ]

    @Test(arguments: vectors)
    func decodesInOneRead(_ vector: Vector) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(vector.bytes) == vector.expected)
    }

    /// Every vector split at every position gives the same events: reads can end anywhere.
    @Test(arguments: vectors)
    func decodesSplitAnywhere(_ vector: Vector) {
        for split in 1..<max(1, vector.bytes.count) {
            var decoder = KeyDecoder()
            var events = decoder.feed(vector.bytes[..<split])
            events += decoder.feed(vector.bytes[split...])
            #expect(events == vector.expected, "split at \(split)")
        }
    }

    @Test func splitUTF8WaitsForTheRest() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xF0, 0x9F]) == [])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.feed([0x98]) == [])
        #expect(decoder.feed([0x80]) == [.key(KeyEvent(.character("😀")))])
    }

    @Test func splitEscapeSequenceIsNotALoneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.feed([0x5B, 0x31, 0x3B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.feed([0x35, 0x43]) == [.key(KeyEvent(.right, .control))])
        #expect(!decoder.hasPendingEscape)
    }

    @Test func loneEscapeIsDecidedByFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flush() == [.key(KeyEvent(.escape))])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flush() == [])
    }

    @Test func escapeBracketFlushedIsAltBracket() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, 0x5B]) == [])
        #expect(decoder.flush() == [.key(KeyEvent(.character("["), .alt))])
    }

    @Test func escapeThenLetterInOneReadIsAlt() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, 0x66]) == [.key(KeyEvent(.character("f"), .alt))])
    }

    @Test func escapeFollowedByKeysAfterFlush() {
        var decoder = KeyDecoder()
        _ = decoder.feed([0x1B])
        #expect(decoder.flush() == [.key(KeyEvent(.escape))])
        #expect(decoder.feed(Array("x".utf8)) == [.key(KeyEvent(.character("x")))])
    }

    @Test func bracketedPasteInOneRead() {
        var decoder = KeyDecoder()
        let bytes = Array("\u{1B}[200~hello\nworld\u{1B}[201~".utf8)
        #expect(decoder.feed(bytes) == [.paste("hello\nworld")])
    }

    @Test func pasteKeepsEscapesAndControlsAsText() {
        var decoder = KeyDecoder()
        let bytes = Array("\u{1B}[200~a\u{1B}[Ab\u{3}\u{1B}[201~z".utf8)
        #expect(decoder.feed(bytes) == [.paste("a\u{1B}[Ab\u{3}"), .key(KeyEvent(.character("z")))])
    }

    /// The markers and the content split at every byte, including inside the end marker and
    /// inside a multi-byte character.
    @Test func pasteSplitAtEveryPosition() {
        let bytes = Array("x\u{1B}[200~日本 🎉\u{1B}[201~y".utf8)
        let expected: [InputEvent] = [.key(KeyEvent(.character("x"))), .paste("日本 🎉"), .key(KeyEvent(.character("y")))]
        for split in 1..<bytes.count {
            var decoder = KeyDecoder()
            let events = decoder.feed(bytes[..<split]) + decoder.feed(bytes[split...])
            #expect(events == expected, "split at \(split)")
        }
    }

    @Test func pasteDeliveredOneByteAtATime() {
        let bytes = Array("\u{1B}[200~ab\u{1B}[20x\u{1B}[201~".utf8)
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        for byte in bytes {
            events += decoder.feed([byte])
            #expect(!decoder.hasPendingEscape || !decoder.isInPaste)
        }
        #expect(events == [.paste("ab\u{1B}[20x")])
    }

    @Test func oneMegabytePasteInChunksIsOneEvent() {
        let line = String(repeating: "x", count: 99) + "\n"
        let content = String(repeating: line, count: 10_486)
        let bytes = Array(("\u{1B}[200~" + content + "\u{1B}[201~").utf8)
        #expect(bytes.count > 1_048_576)
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 4096 + 3)
            events += decoder.feed(bytes[offset..<end])
            offset = end
        }
        #expect(events.count == 1)
        #expect(events.first == .paste(content))
    }

    @Test func escapeInsidePasteDoesNotWaitForTimeout() {
        var decoder = KeyDecoder()
        _ = decoder.feed(Array("\u{1B}[200~abc\u{1B}".utf8))
        #expect(decoder.isInPaste)
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("[201~".utf8)) == [.paste("abc")])
    }

    @Test func flushTurnsTruncatedUTF8IntoReplacement() {
        var decoder = KeyDecoder()
        _ = decoder.feed([0xE6, 0x97])
        #expect(decoder.flush() == [.key(KeyEvent(.character("\u{FFFD}")))])
    }
}
