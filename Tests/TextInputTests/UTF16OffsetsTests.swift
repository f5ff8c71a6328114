import Foundation
import Testing
@testable import TextInput

/// The fast UTF-16 counting over UTF-8 bytes agrees with the standard library's UTF-16 view
/// at every offset, including around four-byte scalars that straddle eight-byte words.
struct UTF16OffsetsTests {
    static let texts = [
        "", "a", "abcdefghijklmnopqrstuvwxyz",
        String(repeating: "Grüße 日本語 👨‍👩‍👧‍👦 שלום e\u{301} 🇫🇷 abc ", count: 3),
        "👍👍👍👍👍", "abcdefg👍hijklmn😀", "abcdef👍", "abcde👍", "𠮷𠮷𠮷a", "ééééééééé", "a\r\nb",
    ]

    static func reference(_ text: String, _ offset: Int) -> UTF16Position {
        guard offset <= text.utf16.count else { return .pastEnd }
        let index = text.utf16.index(text.utf16.startIndex, offsetBy: offset)
        if index.samePosition(in: text.unicodeScalars) != nil { return .index(index) }
        return .insideSurrogatePair(scalar: text.utf16.index(before: index))
    }

    @Test(arguments: texts)
    func positionsMatchTheUTF16View(_ text: String) {
        #expect(text.utf16Length == text.utf16.count)
        var scalarOffsets: [(String.Index, Int)] = []
        for offset in 0...(text.utf16.count + 2) {
            let expected = Self.reference(text, offset)
            #expect(text.utf16Position(atOffset: offset) == expected, "offset \(offset)")
            #expect(text.utf16PositionThroughView(atOffset: offset) == expected, "offset \(offset) through the view")
            for (start, startOffset) in scalarOffsets {
                #expect(text.utf16Position(atOffset: offset, from: (start, startOffset)) == expected, "offset \(offset) from \(startOffset)")
            }
            if case let .index(index) = expected {
                #expect(text.utf16Offset(of: index) == offset)
                #expect(text.utf16OffsetThroughView(of: index) == offset)
                if let (start, startOffset) = scalarOffsets.last {
                    #expect(text.utf16Offset(of: index, from: (start, startOffset)) == offset)
                    #expect(text.utf16OffsetThroughView(of: index, from: (start, startOffset)) == offset)
                }
                scalarOffsets.append((index, offset))
            }
        }
    }

    @Test(arguments: texts)
    func outOfBoundsErrorsReportTheLength(_ text: String) {
        let past = NSRange(location: text.utf16.count + 1, length: 0)
        #expect(throws: TextEditError.outOfBounds(location: past.location, length: 0, utf16Length: text.utf16.count)) {
            try text.indexRange(of: past)
        }
    }
}
