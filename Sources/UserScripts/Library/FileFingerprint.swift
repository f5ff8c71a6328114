/// What a script's file looked like when the library read it: size, modification time and a hash
/// of the content.
///
/// A save compares it with the file on disk just before replacing the file, and refuses
/// (``LibraryError/changedOnDisk(path:)``) when they differ, so an edit made by another program
/// since the read is never overwritten silently. The hash catches edits that keep the size and
/// land within the file system's timestamp granularity.
public struct FileFingerprint: Hashable, Sendable {
    /// The size in bytes.
    public let size: Int64
    /// The modification time, seconds since 1970.
    public let modificationSeconds: Int64
    /// The sub-second part of the modification time.
    public let modificationNanoseconds: Int64
    /// A 64-bit FNV-1a hash of the content: a check against accidental change, not a security measure.
    public let contentHash: UInt64

    init(bytes: [UInt8], status: FileSystem.Status) {
        self.init(status: status, contentHash: Self.hash(bytes))
    }

    init(status: FileSystem.Status, contentHash: UInt64) {
        size = status.size
        modificationSeconds = status.modificationSeconds
        modificationNanoseconds = status.modificationNanoseconds
        self.contentHash = contentHash
    }

    static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
