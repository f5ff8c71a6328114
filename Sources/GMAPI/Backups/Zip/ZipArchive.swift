/// A zip archive held in memory, read strictly from its central directory: what the userscript
/// managers' backups are.
///
/// Only what such backups use is read: entries stored (method 0) or deflated (method 8), in one
/// archive of at most 65 535 entries. ZIP64, archives split across files, encrypted entries and
/// other methods are refused, as are names that could reach outside a folder (`..`, an absolute
/// path, a drive letter, a NUL) and names given twice. Sizes are bounded before anything is
/// inflated (``Limits``): an entry that declares more than the limit, or inflates to more than it
/// declares, is refused, so a small archive cannot make PageScript write out gigabytes. Each
/// entry's content is checked against its CRC-32 when read.
///
/// ```swift
/// let archive = try ZipArchive(bytes: try FileSystem.contents(atPath: path) ?? [])
/// for entry in archive.entries where entry.name.hasSuffix(".user.js") {
///     let script = try archive.contents(of: entry)
/// }
/// ```
struct ZipArchive: Sendable {
    /// The sizes an archive may have.
    struct Limits: Sendable, Hashable {
        /// The most bytes one entry may hold once inflated.
        var maximumEntryBytes = 64 * 1024 * 1024
        /// The most bytes all the entries together may declare.
        var maximumTotalBytes = 512 * 1024 * 1024
        /// The most entries.
        var maximumEntries = 20_000
    }

    /// One file (or folder) of the archive, as the central directory describes it.
    struct Entry: Sendable, Hashable {
        /// The path inside the archive, `/`-separated.
        let name: String
        /// 0 (stored) or 8 (deflated).
        let method: UInt16
        let crc32: UInt32
        let compressedSize: Int
        /// The size once inflated.
        let size: Int
        /// Where the entry's data starts in the archive.
        let dataOffset: Int

        /// A folder entry (its name ends with `/`), which holds nothing.
        var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The whole archive.
    let bytes: [UInt8]
    /// Every entry, in central-directory order.
    let entries: [Entry]
    let limits: Limits

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50
    private static let endRecordSize = 22

    /// Reads the central directory and checks every entry's header, name and sizes; no entry is
    /// inflated yet.
    init(bytes: [UInt8], limits: Limits = Limits()) throws(ZipError) {
        self.bytes = bytes
        self.limits = limits
        let end = try Self.endRecordOffset(in: bytes)
        let reader = LittleEndian(bytes)
        let disk = reader.u16(end + 4), directoryDisk = reader.u16(end + 6)
        let entriesHere = Int(reader.u16(end + 8)), count = Int(reader.u16(end + 10))
        let directorySize = Int(reader.u32(end + 12)), directoryOffset = Int(reader.u32(end + 16))
        guard count != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
            throw .unsupported("it is a ZIP64 archive, which PageScript does not read")
        }
        guard disk == 0, directoryDisk == 0, entriesHere == count else {
            throw .unsupported("it is split across several files, which PageScript does not read")
        }
        guard count <= limits.maximumEntries else { throw .tooLarge("it has \(count) entries, more than \(limits.maximumEntries)") }
        guard directoryOffset + directorySize <= end else { throw .damaged("its central directory lies past its end") }

        var entries: [Entry] = []
        var names: Set<String> = []
        var total = 0
        var offset = directoryOffset
        for _ in 0..<count {
            let entry = try Self.centralEntry(at: &offset, limit: directoryOffset + directorySize, in: bytes, dataLimit: directoryOffset)
            guard names.insert(entry.name).inserted else { throw .damaged("two entries are named \(ZipError.quoted(entry.name))") }
            guard entry.size <= limits.maximumEntryBytes else {
                throw .tooLarge("the entry \(ZipError.quoted(entry.name)) would inflate to \(entry.size) bytes, more than the limit of \(limits.maximumEntryBytes)")
            }
            total += entry.size
            guard total <= limits.maximumTotalBytes else {
                throw .tooLarge("its entries would inflate to more than \(limits.maximumTotalBytes) bytes together")
            }
            entries.append(entry)
        }
        guard offset == directoryOffset + directorySize else { throw .damaged("its central directory has bytes its entries do not account for") }
        self.entries = entries
    }

    /// The entry named `name`, if there is one.
    func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// An entry's content, inflated and checked against its size and CRC-32.
    func contents(of entry: Entry) throws(ZipError) -> [UInt8] {
        let data = bytes[entry.dataOffset..<(entry.dataOffset + entry.compressedSize)]
        let content: [UInt8]
        if entry.method == 0 {
            content = Array(data)
        } else {
            content = try Inflate.raw(data, size: entry.size, name: entry.name)
        }
        guard Inflate.crc32(content) == entry.crc32 else {
            throw .damagedEntry(name: entry.name, reason: "its content does not match its CRC-32")
        }
        return content
    }

    // MARK: Reading the structure

    /// The end-of-central-directory record: the last one whose comment runs exactly to the end.
    private static func endRecordOffset(in bytes: [UInt8]) throws(ZipError) -> Int {
        guard bytes.count >= endRecordSize else { throw .notAnArchive }
        let reader = LittleEndian(bytes)
        let lowest = max(0, bytes.count - endRecordSize - 0xFFFF)
        var offset = bytes.count - endRecordSize
        while offset >= lowest {
            if reader.u32(offset) == endSignature, offset + endRecordSize + Int(reader.u16(offset + 20)) == bytes.count {
                return offset
            }
            offset -= 1
        }
        throw .notAnArchive
    }

    /// One central-directory header at `offset` (moved past it), checked against its local header.
    private static func centralEntry(at offset: inout Int, limit: Int, in bytes: [UInt8], dataLimit: Int) throws(ZipError) -> Entry {
        let reader = LittleEndian(bytes)
        guard offset + 46 <= limit, reader.u32(offset) == centralSignature else {
            throw .damaged("an entry of its central directory is cut short or has no signature")
        }
        let flags = reader.u16(offset + 8), method = reader.u16(offset + 10)
        let crc = reader.u32(offset + 16)
        let compressedSize = Int(reader.u32(offset + 20)), size = Int(reader.u32(offset + 24))
        let nameLength = Int(reader.u16(offset + 28)), extraLength = Int(reader.u16(offset + 30)), commentLength = Int(reader.u16(offset + 32))
        let localOffset = Int(reader.u32(offset + 42))
        let nameStart = offset + 46
        let next = nameStart + nameLength + extraLength + commentLength
        guard next <= limit else { throw .damaged("an entry of its central directory runs past the directory") }
        let nameBytes = Array(bytes[nameStart..<(nameStart + nameLength)])
        let name = try Self.name(from: nameBytes)
        guard flags & 0x41 == 0 else { throw .unsupported("the entry \(ZipError.quoted(name)) is encrypted, which PageScript does not read") }
        guard method == 0 || method == 8 else {
            throw .unsupported("the entry \(ZipError.quoted(name)) is compressed with method \(method); PageScript reads only stored and deflated entries")
        }
        guard compressedSize != 0xFFFF_FFFF, size != 0xFFFF_FFFF, localOffset != 0xFFFF_FFFF else {
            throw .unsupported("it is a ZIP64 archive, which PageScript does not read")
        }
        guard method == 8 || compressedSize == size else {
            throw .damagedEntry(name: name, reason: "it is stored, yet its two sizes differ")
        }
        guard localOffset + 30 <= dataLimit, reader.u32(localOffset) == localSignature else {
            throw .damagedEntry(name: name, reason: "its local header is missing")
        }
        let localNameLength = Int(reader.u16(localOffset + 26)), localExtraLength = Int(reader.u16(localOffset + 28))
        let dataOffset = localOffset + 30 + localNameLength + localExtraLength
        guard dataOffset + compressedSize <= dataLimit else { throw .damagedEntry(name: name, reason: "its data runs past the central directory") }
        guard bytes[(localOffset + 30)..<(localOffset + 30 + localNameLength)].elementsEqual(nameBytes) else {
            throw .damagedEntry(name: name, reason: "its local header names another file")
        }
        offset = next
        return Entry(name: name, method: method, crc32: crc, compressedSize: compressedSize, size: size, dataOffset: dataOffset)
    }

    /// An entry's name: UTF-8, relative, and never stepping out of the folder it would be
    /// unpacked into (`\` counts as a separator too, as Windows tools write it).
    static func name(from bytes: [UInt8]) throws(ZipError) -> String {
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw .unsupported("an entry's name is not UTF-8: \(ZipError.quoted(String(decoding: bytes, as: UTF8.self)))")
        }
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "\\", omittingEmptySubsequences: false) }
        let isAbsolute = name.hasPrefix("/") || name.hasPrefix("\\")
        let hasDrive = name.count >= 2 && name.dropFirst().first == ":" && name.first?.isLetter == true
        guard !name.isEmpty, !isAbsolute, !hasDrive, !name.contains("\0"), !segments.contains(where: { $0 == ".." }) else {
            throw .hostileName(name)
        }
        return name
    }
}

/// Little-endian integers read at byte offsets of an archive (the caller checks the bounds).
private struct LittleEndian {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u16(_ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }
}
