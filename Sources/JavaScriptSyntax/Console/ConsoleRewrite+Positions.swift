extension ConsoleRewrite {
    /// Maps a position in ``body`` back to the user's code.
    ///
    /// Lines are the same in both; columns after inserted text on its line move left by its
    /// length; a position inside inserted text (the `return ` or the parentheses around an object
    /// literal) maps to the start of the statement it belongs to. A column past the end of its
    /// line stays past the end, as engines sometimes report.
    ///
    /// ```swift
    /// let rewrite = try ConsoleRewrite("let a = {}\na.b.c")
    /// // The body's line 2 is `return a.b.c`; the engine reports the TypeError at column 12,
    /// // the `c`, which the user wrote at column 5.
    /// rewrite.originalPosition(line: 2, column: 12)  // line 2, column 5
    /// ```
    ///
    /// - Parameters:
    ///   - line: The line in ``body``, from 1 (the caller's own lines before it already
    ///     subtracted).
    ///   - column: The column in ``body`` in UTF-16 code units, from 1.
    /// - Returns: The position in the user's code, or `nil` when the line is not one of the
    ///   body's.
    public func originalPosition(line: Int, column: Int) -> SourcePosition? {
        guard line >= 1, column >= 1 else { return nil }
        guard line <= lineStarts.count else {
            guard line == lineStarts.count + 1, hasAddedLineBreak else { return nil }
            // The line break the rewrite added after the user's last line.
            return endPosition
        }
        var userColumn = column
        for insertion in insertions where insertion.bodyLine == line {
            let length = insertion.text.utf16.count
            if column < insertion.bodyColumn { break }
            if column < insertion.bodyColumn + length { return insertion.anchor }
            userColumn -= length
        }
        return SourcePosition(line: line, column: userColumn, offset: lineStarts[line - 1] + userColumn - 1)
    }

    /// The position just after the user's last character.
    private var endPosition: SourcePosition {
        let lastStart = lineStarts[lineStarts.count - 1]
        return SourcePosition(line: lineStarts.count, column: sourceLength - lastStart + 1, offset: sourceLength)
    }

    /// Where each line of `units` starts; a CR LF pair is one line break, and LINE SEPARATOR and
    /// PARAGRAPH SEPARATOR break lines too, as in ECMAScript.
    static func lineStarts(of units: [UInt16]) -> [Int] {
        units.withUnsafeBufferPointer { units in
            var starts = [0]
            var index = 0
            while index < units.count {
                let unit = units[index]
                index += 1
                // Most units are neither CR, LF nor U+2028/U+2029: one comparison each.
                guard unit <= CodeUnit.carriageReturn || unit >= CodeUnit.lineSeparator else { continue }
                if unit == CodeUnit.carriageReturn, index < units.count, units[index] == CodeUnit.lineFeed {
                    index += 1
                }
                if CodeUnit.isLineTerminator(unit) {
                    starts.append(index)
                }
            }
            return starts
        }
    }

    /// The line (from 1) that holds `offset`.
    static func line(containing offset: Int, lineStarts: [Int]) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low + 1
    }
}
