extension String {
    /// Finds the position at a UTF-16 offset, optionally continuing from a known one.
    ///
    /// A native Swift string is UTF-8, and the standard library answers UTF-16 questions on
    /// long non-ASCII strings by first building a table of UTF-16 positions ("breadcrumbs")
    /// over the whole string, once per string. An editor makes a new string on every
    /// keystroke, so that table is rebuilt every time, over the whole text.
    /// Counting UTF-16 units straight from the UTF-8 bytes, eight ASCII bytes at a time and
    /// only up to the offset, costs far less and builds nothing. Strings without
    /// contiguous UTF-8 (bridged `NSString`s, which are UTF-16 already) use the UTF-16 view.
    ///
    /// - Parameters:
    ///   - offset: The UTF-16 offset to find, not negative.
    ///   - start: A scalar-aligned index and its UTF-16 offset, not after `offset`, to
    ///     continue from; the start of the string by default.
    func utf16Position(atOffset offset: Int, from start: (index: String.Index, offset: Int)? = nil) -> UTF16Position {
        let scanned = utf8.withContiguousStorageIfAvailable { bytes in
            // Byte offsets are only cheap with contiguous UTF-8, so they are taken in here.
            let startByte = start.map { utf8.distance(from: utf8.startIndex, to: $0.index) } ?? 0
            return UTF16Scan.find(offset, in: bytes, fromByte: startByte, units: start?.offset ?? 0)
        }
        switch scanned {
        case let .byte(byteOffset)?:
            return .index(utf8.index(utf8.startIndex, offsetBy: byteOffset))
        case let .insideFourByteScalar(leadByte)?:
            return .insideSurrogatePair(scalar: utf8.index(utf8.startIndex, offsetBy: leadByte))
        case .pastEnd?:
            return .pastEnd
        case nil:
            return utf16PositionThroughView(atOffset: offset)
        }
    }

    /// The number of UTF-16 code units, counted without building breadcrumbs.
    var utf16Length: Int {
        utf8.withContiguousStorageIfAvailable { UTF16Scan.count(in: $0, fromByte: 0, toByte: $0.count) } ?? utf16.count
    }

    /// The UTF-16 offset of a scalar-aligned index, counted without building breadcrumbs.
    ///
    /// - Parameters:
    ///   - index: A scalar-aligned index of this string.
    ///   - start: A scalar-aligned index before it and its UTF-16 offset, to count from.
    func utf16Offset(of index: String.Index, from start: (index: String.Index, offset: Int)? = nil) -> Int {
        utf8.withContiguousStorageIfAvailable { bytes in
            let startByte = start.map { utf8.distance(from: utf8.startIndex, to: $0.index) } ?? 0
            let endByte = utf8.distance(from: utf8.startIndex, to: index)
            return (start?.offset ?? 0) + UTF16Scan.count(in: bytes, fromByte: startByte, toByte: endByte)
        } ?? utf16OffsetThroughView(of: index, from: start)
    }

    /// The offset counted through the UTF-16 view, for strings without contiguous UTF-8.
    func utf16OffsetThroughView(of index: String.Index, from start: (index: String.Index, offset: Int)? = nil) -> Int {
        (start?.offset ?? 0) + utf16.distance(from: start?.index ?? utf16.startIndex, to: index)
    }

    /// The position found through the UTF-16 view, for strings without contiguous UTF-8.
    func utf16PositionThroughView(atOffset offset: Int) -> UTF16Position {
        guard offset <= utf16.count else { return .pastEnd }
        let index = utf16.index(utf16.startIndex, offsetBy: offset)
        if index.samePosition(in: unicodeScalars) != nil { return .index(index) }
        return .insideSurrogatePair(scalar: utf16.index(before: index))
    }
}

/// Where a UTF-16 offset falls in a string.
enum UTF16Position: Equatable {
    /// On a scalar boundary, at this index.
    case index(String.Index)
    /// Between the two halves of a surrogate pair; `scalar` is where that scalar starts.
    case insideSurrogatePair(scalar: String.Index)
    /// Past the end of the string.
    case pastEnd
}
