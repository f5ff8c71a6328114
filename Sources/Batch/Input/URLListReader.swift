import Foundation
import SystemSupport

/// Reads a batch's URL list a chunk at a time, so that a list of any length streams through a
/// fixed amount of memory.
///
/// One URL per line (`\n` or `\r\n`); surrounding spaces and tabs are ignored; blank lines and
/// lines whose first character is `#` are skipped; a UTF-8 byte order mark at the start is
/// dropped. A line longer than ``maximumLineLength`` bytes is not kept whole: it becomes an entry
/// with a ``BatchEntry/problem`` and the rest of it is skipped, so one enormous line cannot fill
/// the memory either.
///
/// Reading blocks: call it from a thread that may block (``EntryFeed`` uses a queue of its own),
/// never from Swift's cooperative pool.
///
/// ```swift
/// let reader = try URLListReader(path: "urls.txt")
/// while let entry = try reader.nextEntry() {
///     print(entry.index, entry.text)
/// }
/// ```
public final class URLListReader {
    /// The longest line kept, in bytes; longer lines become entries with a problem.
    public static let maximumLineLength = 64 * 1024

    /// How much is read from the descriptor at a time.
    static let chunkSize = 64 * 1024

    /// What the input is called in messages: its path, or "standard input".
    public let name: String

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var chunk = [UInt8](repeating: 0, count: URLListReader.chunkSize)
    private var chunkStart = 0
    private var chunkEnd = 0
    private var partialLine: [UInt8] = []
    private var partialLineOverlong = false
    private var reachedEnd = false
    private var lineNumber = 0
    private var nextIndex = 0

    /// Opens the file at `path`.
    ///
    /// - Throws: ``BatchInputError/unreadable(name:reason:)`` when it cannot be opened.
    public convenience init(path: String) throws(BatchInputError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(name: path, reason: errnoDescription(errno)) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .unreadable(name: path, reason: "it is a directory")
        }
        self.init(descriptor: descriptor, name: path, ownsDescriptor: true)
    }

    /// Reads from an open descriptor, such as standard input (0), which is not closed.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor to read.
    ///   - name: What to call the input in messages.
    public convenience init(descriptor: Int32, name: String) {
        self.init(descriptor: descriptor, name: name, ownsDescriptor: false)
    }

    private init(descriptor: Int32, name: String, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next URL line as an entry, or `nil` at the end of the input.
    ///
    /// - Throws: ``BatchInputError/unreadable(name:reason:)`` when reading fails.
    public func nextEntry() throws(BatchInputError) -> BatchEntry? {
        while let (bytes, overlong) = try nextLine() {
            guard let content = Self.content(of: bytes, isFirstLine: lineNumber == 1) else { continue }
            let index = nextIndex
            nextIndex += 1
            if overlong {
                let shown = String(decoding: content.prefix(80), as: UTF8.self)
                return BatchEntry(index: index, line: lineNumber, text: shown + "…",
                                  problem: "the line is longer than \(Self.maximumLineLength / 1024) KiB")
            }
            if let text = String(validating: content, as: UTF8.self) {
                return BatchEntry(index: index, line: lineNumber, text: text)
            }
            return BatchEntry(index: index, line: lineNumber, text: String(decoding: content, as: UTF8.self),
                              problem: "the line is not UTF-8 text")
        }
        return nil
    }

    /// Counts the URL lines of the file at `path` without keeping any of them, for progress
    /// reports that know the total.
    ///
    /// - Throws: ``BatchInputError/unreadable(name:reason:)`` when reading fails.
    public static func countEntries(path: String) throws(BatchInputError) -> Int {
        let reader = try URLListReader(path: path)
        var count = 0
        while let (bytes, _) = try reader.nextLine() {
            if content(of: bytes, isFirstLine: reader.lineNumber == 1) != nil { count += 1 }
        }
        return count
    }

    /// The line's content without surrounding blanks, a leading byte order mark or a carriage
    /// return; `nil` for a blank line or a comment.
    static func content(of line: ArraySlice<UInt8>, isFirstLine: Bool) -> ArraySlice<UInt8>? {
        var content = line
        if isFirstLine, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        while let last = content.last, last == 0x0D || last == 0x20 || last == 0x09 { content = content.dropLast() }
        while let first = content.first, first == 0x20 || first == 0x09 { content = content.dropFirst() }
        guard let first = content.first, first != UInt8(ascii: "#") else { return nil }
        return content
    }

    /// The next raw line (without its `\n`) and whether it was cut at ``maximumLineLength``.
    private func nextLine() throws(BatchInputError) -> (ArraySlice<UInt8>, Bool)? {
        while true {
            if chunkStart < chunkEnd {
                let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 0x0A)
                let end = newline ?? chunkEnd
                appendToLine(chunk[chunkStart..<end])
                chunkStart = newline.map { $0 + 1 } ?? chunkEnd
                if newline != nil { return finishLine() }
                continue
            }
            if reachedEnd {
                return partialLine.isEmpty && !partialLineOverlong ? nil : finishLine()
            }
            try refill()
        }
    }

    private func appendToLine(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maximumLineLength - partialLine.count
        if bytes.count > room {
            partialLine.append(contentsOf: bytes.prefix(max(room, 0)))
            partialLineOverlong = true
        } else {
            partialLine.append(contentsOf: bytes)
        }
    }

    private func finishLine() -> (ArraySlice<UInt8>, Bool) {
        lineNumber += 1
        let line = (partialLine[...], partialLineOverlong)
        partialLine.removeAll(keepingCapacity: partialLine.capacity <= 4096)
        partialLineOverlong = false
        return line
    }

    private func refill() throws(BatchInputError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                chunkStart = 0
                chunkEnd = count
                return
            }
            if count == 0 {
                reachedEnd = true
                return
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN {
                // A non-blocking descriptor (a shell may hand one over): wait until it has data.
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 1000)
                continue
            }
            throw .unreadable(name: name, reason: errnoDescription(code))
        }
    }
}
