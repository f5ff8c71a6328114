/// PageScript's record of what it concluded about each file of a library, kept beside the files
/// in `.pagescript-index` so that a cold start reads one file instead of parsing and compiling
/// every script.
///
/// Each entry is keyed by the file's name and carries the file's status (size, times, inode) and
/// content hash when it was read, and its ``ScriptInterpretation`` with the rules compiled. An
/// entry is used only when the file's status is unchanged; anything else is read and interpreted
/// again. The index is a cache: it is written atomically, a missing, truncated, corrupt or older
/// one is ignored and rebuilt without a word, and deleting it loses nothing.
///
/// Layout: the bytes `PSIX`, the format number, the entries, and an FNV-1a hash of everything
/// before it. Numbers are LEB128 varints (``BinaryWriter``).
struct LibraryIndex {
    static let fileName = ".pagescript-index"
    /// Raised whenever this layout or the way scripts are interpreted changes, so that an index
    /// written by another version of PageScript is rebuilt rather than trusted.
    static let format: UInt64 = 1
    private static let magic = Array("PSIX".utf8)

    struct Entry {
        var status: FileSystem.Status
        var fingerprint: FileFingerprint
        var interpretation: ScriptInterpretation
    }

    var entries: [String: Entry] = [:]

    init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Reads an index; `nil` when it is not one this version wrote whole.
    init?(bytes: [UInt8]) {
        let hashLength = 8
        guard bytes.count >= Self.magic.count + hashLength, bytes.starts(with: Self.magic) else { return nil }
        let payloadEnd = bytes.count - hashLength
        var stored: UInt64 = 0
        for index in 0..<hashLength { stored |= UInt64(bytes[payloadEnd + index]) << (8 * UInt64(index)) }
        guard FileFingerprint.hash(bytes[..<payloadEnd]) == stored else { return nil }
        let decoded: [String: Entry]? = bytes.withUnsafeBufferPointer { buffer in
            var reader = BinaryReader(UnsafeBufferPointer(rebasing: buffer[..<payloadEnd]), from: Self.magic.count)
            do throws(BinaryReader.Corrupt) {
                guard try reader.readUnsigned() == Self.format else { return nil }
                let count = try reader.readCount()
                var entries: [String: Entry] = [:]
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let name = try reader.readString()
                    entries[name] = try reader.readEntry()
                }
                return reader.isAtEnd ? entries : nil
            } catch {
                return nil
            }
        }
        guard let decoded else { return nil }
        entries = decoded
    }

    /// The index as written to disk.
    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        writer.append(raw: Self.magic)
        writer.write(Self.format)
        writer.write(UInt64(entries.count))
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            writer.write(name)
            writer.write(entry)
        }
        var bytes = writer.bytes
        let hash = FileFingerprint.hash(bytes[...])
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: hash >> (8 * UInt64(index)))) }
        return bytes
    }
}

extension BinaryWriter {
    fileprivate mutating func write(_ entry: LibraryIndex.Entry) {
        let status = entry.status
        write(status.size)
        write(status.modificationSeconds)
        write(status.modificationNanoseconds)
        write(status.changeSeconds)
        write(status.changeNanoseconds)
        write(status.inode)
        write(UInt64(status.mode))
        write(status.isRegularFile)
        write(status.isDirectory)
        write(status.isSymbolicLink)
        write(entry.fingerprint.contentHash)
        write(entry.interpretation)
    }
}

extension BinaryReader {
    fileprivate mutating func readEntry() throws(Corrupt) -> LibraryIndex.Entry {
        let size = try readInt64()
        let modificationSeconds = try readInt64()
        let modificationNanoseconds = try readInt64()
        let changeSeconds = try readInt64()
        let changeNanoseconds = try readInt64()
        let inode = try readUnsigned()
        guard let mode = UInt32(exactly: try readUnsigned()) else { throw Corrupt() }
        let status = FileSystem.Status(
            size: size, modificationSeconds: modificationSeconds, modificationNanoseconds: modificationNanoseconds,
            changeSeconds: changeSeconds, changeNanoseconds: changeNanoseconds, inode: inode, mode: mode,
            isRegularFile: try readBool(), isDirectory: try readBool(), isSymbolicLink: try readBool())
        let fingerprint = FileFingerprint(status: status, contentHash: try readUnsigned())
        return LibraryIndex.Entry(status: status, fingerprint: fingerprint, interpretation: try readInterpretation())
    }
}
