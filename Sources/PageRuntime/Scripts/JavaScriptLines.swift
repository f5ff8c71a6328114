/// Lines as JavaScript counts them: a line ends at LF, CR, CR LF, U+2028 or U+2029, so the
/// positions engines report and the positions PageScript computes agree.
enum JavaScriptLines {
    /// The number of lines in `text` (one more than its line terminators).
    static func count(in text: String) -> Int {
        var lines = 1
        var previousWasCarriageReturn = false
        for unit in text.utf16 {
            switch unit {
            case 0x0A:
                if !previousWasCarriageReturn { lines += 1 }
            case 0x0D, 0x2028, 0x2029:
                lines += 1
            default:
                break
            }
            previousWasCarriageReturn = unit == 0x0D
        }
        return lines
    }

    /// The 1-based line and column (in UTF-16 code units) of the UTF-16 offset `offset` in `text`.
    static func position(ofOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var previousWasCarriageReturn = false
        for (index, unit) in text.utf16.enumerated() {
            if index >= offset { break }
            switch unit {
            case 0x0A:
                if !previousWasCarriageReturn { line += 1 }
                lineStart = index + 1
            case 0x0D, 0x2028, 0x2029:
                line += 1
                lineStart = index + 1
            default:
                break
            }
            previousWasCarriageReturn = unit == 0x0D
        }
        return (line, offset - lineStart + 1)
    }
}
