/// One row of CSV or TSV text, split into its cells as RFC 4180 (and Python's `csv` module) reads
/// it: a cell that starts with a double quote runs to the next lone quote and may hold the
/// delimiter, line breaks and `""` for a quote; anything after its closing quote up to the
/// delimiter is kept, as is a quote inside an unquoted cell.
///
/// ```swift
/// TableRow.cells(of: #"1,"a, ""b""",c"#.utf8, delimiter: 0x2C)   // ["1", "a, \"b\"", "c"]
/// ```
enum TableRow {
    /// Whether `bytes` end inside a quoted cell: the row goes on on the next line.
    static func endsInsideQuotes(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.reduce(false) { inside, byte in byte == UInt8(ascii: "\"") ? !inside : inside }
    }

    /// The cells of `bytes`, decoded as UTF-8; `nil` when they are not UTF-8 text.
    static func cells(of bytes: some Collection<UInt8>, delimiter: UInt8) -> [String]? {
        var cells: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        var atCellStart = true
        var iterator = bytes.makeIterator()
        var pending: UInt8? = nil
        func next() -> UInt8? {
            if let byte = pending {
                pending = nil
                return byte
            }
            return iterator.next()
        }
        func finishCell() -> Bool {
            guard let text = String(validating: cell, as: UTF8.self) else { return false }
            cells.append(text)
            cell.removeAll(keepingCapacity: true)
            atCellStart = true
            return true
        }
        while let byte = next() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if let following = next() {
                        if following == UInt8(ascii: "\"") {
                            cell.append(following)
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(byte)
                }
                continue
            }
            if byte == delimiter {
                guard finishCell() else { return nil }
            } else if byte == UInt8(ascii: "\""), atCellStart {
                quoted = true
                atCellStart = false
            } else {
                cell.append(byte)
                atCellStart = false
            }
        }
        guard finishCell() else { return nil }
        return cells
    }
}
