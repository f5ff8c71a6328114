/// Why a zip archive was refused. Every case refuses the whole archive: nothing of it is used.
enum ZipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a zip archive, or one cut short: no end-of-central-directory record.
    case notAnArchive
    /// The archive's structure does not hold together (offsets, sizes or signatures).
    case damaged(String)
    /// An entry's content does not match its CRC-32 or its declared size.
    case damagedEntry(name: String, reason: String)
    /// A kind of archive or entry this reader does not read (ZIP64, split, encrypted, a method
    /// other than stored or deflated).
    case unsupported(String)
    /// An entry's name could put a file outside any folder it is unpacked into.
    case hostileName(String)
    /// A size over ``ZipArchive/Limits``: the archive, one entry, or all of them together.
    case tooLarge(String)

    /// What is wrong, as a clause for the terminal.
    var description: String {
        switch self {
        case .notAnArchive: "it is not a zip archive, or it was cut short (it has no end-of-central-directory record)"
        case .damaged(let reason): "the archive is damaged: \(reason)"
        case .damagedEntry(let name, let reason): "the entry \(Self.quoted(name)) is damaged: \(reason)"
        case .unsupported(let reason): reason
        case .hostileName(let name): "the entry \(Self.quoted(name)) names a place outside the archive's folder"
        case .tooLarge(let reason): reason
        }
    }

    /// A name as JSON writes it, so that control characters and quotes stay visible.
    static func quoted(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
