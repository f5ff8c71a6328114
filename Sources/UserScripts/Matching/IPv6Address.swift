/// An IPv6 address from a bracketed URL host such as `[::1]`.
///
/// Parsed with the WHATWG IPv6 parser (including an embedded dotted IPv4 tail) and compared by
/// value, so `[0:0::1]` and `[::1]` are the same host; zone identifiers are refused, as browsers do.
public struct IPv6Address: Hashable, Sendable, CustomStringConvertible {
    /// The eight 16-bit pieces, most significant first.
    public let pieces: [UInt16]

    init?(pieces: [UInt16]) {
        guard pieces.count == 8 else { return nil }
        self.pieces = pieces
    }

    /// The canonical text without brackets: lowercase hexadecimal, no leading zeros, and the
    /// first longest run of two or more zero pieces written as `::`.
    public var description: String {
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard pieces[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, pieces[end] == 0 { end += 1 }
            if end - index > bestLength {
                bestStart = index
                bestLength = end - index
            }
            index = end
        }
        var output = ""
        index = 0
        while index < 8 {
            if index == bestStart {
                output += index == 0 ? "::" : ":"
                index += bestLength
                continue
            }
            output += String(pieces[index], radix: 16)
            if index < 7 { output += ":" }
            index += 1
        }
        return output
    }

    /// Reads the text between the brackets; `nil` when it is not a valid address.
    static func parse(_ text: some Collection<UInt8>) -> IPv6Address? {
        let input = Array(text)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func at(_ position: Int) -> UInt8? { position < input.count ? input[position] : nil }
        let colon = UInt8(ascii: ":")

        if at(pointer) == colon {
            guard at(pointer + 1) == colon else { return nil }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let current = at(pointer) {
            guard pieceIndex < 8 else { return nil }
            if current == colon {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value = 0
            var length = 0
            while length < 4, let digit = at(pointer)?.hexDigitValue {
                value = value * 16 + digit
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                var numbersSeen = 0
                while at(pointer) != nil {
                    if numbersSeen > 0 {
                        guard at(pointer) == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard let first = at(pointer), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
                    var piece: Int?
                    while let byte = at(pointer), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                        let digit = Int(byte - UInt8(ascii: "0"))
                        switch piece {
                        case nil: piece = digit
                        case 0: return nil
                        case let existing?: piece = existing * 10 + digit
                        }
                        guard let piece, piece <= 255 else { return nil }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if at(pointer) == colon {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return IPv6Address(pieces: address)
    }
}
