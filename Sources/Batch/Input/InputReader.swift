import Foundation
import SystemSupport

/// Reads a batch's input a chunk at a time, so that an input of any length streams through a
/// fixed amount of memory.
///
/// In a URL list (``InputFormat/urlList``), one URL per line (`\n` or `\r\n`); surrounding
/// spaces and tabs are ignored; blank lines and lines whose first character is `#` are skipped.
/// In a table (CSV, TSV), the first line names the columns, one of them `url` (in any case), and
/// each row after it is an entry whose other cells are its ``BatchEntry/fields``; blank lines are
/// skipped. In JSON lines, each line is an object with a string `url`. A UTF-8 byte order mark
/// at the start is dropped. A line longer than ``maximumLineLength`` bytes is not kept whole: it
/// becomes an entry with a ``BatchEntry/problem`` and the rest of it is skipped, so one enormous
/// line cannot fill the memory either; so does a row that cannot be read (cells that do not
/// match the header, a line that is not a JSON object with a `url`).
///
/// Reading blocks: call it from a thread that may block (``EntryFeed`` uses a queue of its own),
/// never from Swift's cooperative pool.
///
/// ```swift
/// let reader = try InputReader(path: "urls.txt")
/// while let entry = try reader.nextEntry() {
///     print(entry.index, entry.text)
/// }
/// ```
public final class InputReader {
    /// The longest line kept, in bytes; longer lines become entries with a problem.
    public static let maximumLineLength = 64 * 1024

    /// How much is read from the descriptor at a time.
    static let chunkSize = 64 * 1024

    /// What the input is called in messages: its path, or "standard input".
    public let name: String
    /// How the input is laid out.
    public let format: InputFormat
    /// A table's column names, once its header is read.
    public private(set) var columns: [String]?

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var chunk = [UInt8](repeating: 0, count: InputReader.chunkSize)
    private var chunkStart = 0
    private var chunkEnd = 0
    private var partialLine: [UInt8] = []
    private var partialLineOverlong = false
    private var reachedEnd = false
    private var lineNumber = 0
    private var nextIndex = 0

    /// Opens the file at `path`, laid out as `format` says.
    ///
    /// - Throws: ``BatchInputError/unreadable(name:reason:)`` when it cannot be opened.
    public convenience init(path: String, format: InputFormat = .urlList) throws(BatchInputError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(name: path, reason: errnoDescription(errno)) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .unreadable(name: path, reason: "it is a directory")
        }
        self.init(descriptor: descriptor, name: path, format: format, ownsDescriptor: true)
    }

    /// Reads from an open descriptor, such as standard input (0), which is not closed.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor to read.
    ///   - name: What to call the input in messages.
    ///   - format: How it is laid out.
    public convenience init(descriptor: Int32, name: String, format: InputFormat = .urlList) {
        self.init(descriptor: descriptor, name: name, format: format, ownsDescriptor: false)
    }

    private init(descriptor: Int32, name: String, format: InputFormat, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.format = format
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next entry, or `nil` at the end of the input.
    ///
    /// - Throws: ``BatchInputError/unreadable(name:reason:)`` when reading fails,
    ///   ``BatchInputError/badHeader(name:reason:)`` when a table's header has no `url` column.
    public func nextEntry() throws(BatchInputError) -> BatchEntry? {
        switch format {
        case .urlList: try nextListEntry()
        case let .table(delimiter): try nextTableEntry(delimiter: delimiter)
        case .jsonLines: try nextJSONEntry()
        }
    }

    private func nextListEntry() throws(BatchInputError) -> BatchEntry? {
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

    /// Counts the entries of the file at `path` without keeping any of them, for progress
    /// reports that know the total.
    ///
    /// - Throws: ``BatchInputError`` when reading fails.
    public static func countEntries(path: String, format: InputFormat = .urlList) throws(BatchInputError) -> Int {
        let reader = try InputReader(path: path, format: format)
        var count = 0
        guard format == .urlList else {
            while try reader.nextEntry() != nil { count += 1 }
            return count
        }
        while let (bytes, _) = try reader.nextLine() {
            if content(of: bytes, isFirstLine: reader.lineNumber == 1) != nil { count += 1 }
        }
        return count
    }

    /// The next row of a table: its cells by column, the URL its `url` cell holds.
    private func nextTableEntry(delimiter: UInt8) throws(BatchInputError) -> BatchEntry? {
        if columns == nil {
            guard let (header, _, _) = try nextRow() else { return nil }
            guard let cells = TableRow.cells(of: header, delimiter: delimiter) else {
                throw .badHeader(name: name, reason: "its first line is not UTF-8 text")
            }
            columns = try Self.checkedColumns(cells.map { $0.trimmingCharacters(in: .whitespaces) }, name: name)
        }
        guard let columns, let (bytes, firstLine, overlong) = try nextRow() else { return nil }
        let index = nextIndex
        nextIndex += 1
        if overlong {
            return BatchEntry(index: index, line: firstLine, text: String(decoding: bytes.prefix(80), as: UTF8.self) + "…",
                              problem: "the row is longer than \(Self.maximumLineLength / 1024) KiB")
        }
        guard let cells = TableRow.cells(of: bytes, delimiter: delimiter) else {
            return BatchEntry(index: index, line: firstLine, text: String(decoding: bytes.prefix(80), as: UTF8.self),
                              problem: "the row is not UTF-8 text")
        }
        let urlColumn = columns.firstIndex { $0.lowercased() == "url" } ?? 0
        let url = cells.indices.contains(urlColumn) ? cells[urlColumn].trimmingCharacters(in: .whitespaces) : ""
        guard cells.count == columns.count else {
            return BatchEntry(index: index, line: firstLine, text: url,
                              problem: "the row has \(cells.count) cells where the header names \(columns.count) columns")
        }
        let fields = zip(columns, cells).enumerated().filter { $0.offset != urlColumn }.map { (key: $0.element.0, value: JSONValue.string($0.element.1)) }
        return BatchEntry(index: index, line: firstLine, text: url, problem: url.isEmpty ? "the row's url cell is empty" : nil, fields: .object(fields))
    }

    /// A table's column names, checked: one `url`, no name twice, none empty.
    static func checkedColumns(_ names: [String], name: String) throws(BatchInputError) -> [String] {
        let urls = names.filter { $0.lowercased() == "url" }
        guard urls.count == 1 else {
            let shown = names.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
            throw .badHeader(name: name, reason: urls.isEmpty
                ? "its first line names no 'url' column (it names \(shown)); the first line of a table names its columns"
                : "it names more than one 'url' column")
        }
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw .badHeader(name: name, reason: "column \(empty + 1) has no name")
        }
        var seen = Set<String>()
        for column in names where !seen.insert(column).inserted {
            throw .badHeader(name: name, reason: "it names the column '\(column)' twice")
        }
        return names
    }

    /// The next line of JSON lines: an object with a string `url`, whose other members are the
    /// entry's fields.
    private func nextJSONEntry() throws(BatchInputError) -> BatchEntry? {
        while let (bytes, overlong) = try nextLine() {
            var content = bytes
            if lineNumber == 1, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
            guard content.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let index = nextIndex
            nextIndex += 1
            let shown = String(decoding: content.prefix(80), as: UTF8.self)
            if overlong {
                return BatchEntry(index: index, line: lineNumber, text: shown + "…",
                                  problem: "the line is longer than \(Self.maximumLineLength / 1024) KiB")
            }
            guard case let .object(members)? = try? JSONValue(parsing: Array(content)) else {
                return BatchEntry(index: index, line: lineNumber, text: shown, problem: "the line is not a JSON object")
            }
            guard let url = members.first(where: { $0.key == "url" })?.value.stringValue else {
                return BatchEntry(index: index, line: lineNumber, text: shown, problem: "the object has no string member 'url'")
            }
            let text = url.trimmingCharacters(in: .whitespaces)
            return BatchEntry(index: index, line: lineNumber, text: text, problem: text.isEmpty ? "its url is empty" : nil,
                              fields: .object(members.filter { $0.key != "url" }))
        }
        return nil
    }

    /// The next row of a table that is not blank: its bytes (the lines of a quoted cell that goes
    /// on joined by line breaks, a line's `\r` dropped), the line it starts on, and whether it
    /// was cut at ``maximumLineLength``.
    private func nextRow() throws(BatchInputError) -> ([UInt8], Int, Bool)? {
        while let (bytes, overlong) = try nextLine() {
            var row = Array(bytes)
            if lineNumber == 1, row.starts(with: [0xEF, 0xBB, 0xBF]) { row.removeFirst(3) }
            if row.last == 0x0D { row.removeLast() }
            let firstLine = lineNumber
            var cut = overlong
            while TableRow.endsInsideQuotes(row), !cut, let (more, moreOverlong) = try nextLine() {
                row.append(0x0A)
                row.append(contentsOf: more)
                if row.last == 0x0D { row.removeLast() }
                cut = moreOverlong || row.count > Self.maximumLineLength
            }
            guard row.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            return (row, firstLine, cut)
        }
        return nil
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
