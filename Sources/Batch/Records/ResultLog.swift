import Foundation
import SystemSupport

/// The file (or standard output) a batch writes its records to, one line per record (a CSV row
/// may hold line breaks in a quoted cell: it is still written whole, in one `write`).
///
/// Each line is handed to the kernel with its newline in a single `write` as soon as its record
/// is final, so a reader following the file sees whole lines, and a process that is killed loses
/// nothing it had finished. The only line a kill can tear is one being written at that instant;
/// ``ResumeLedger`` drops it and the batch runs that entry again.
///
/// Durability against a power cut or a kernel crash is a matter of `fdatasync`: it runs at most
/// once a second while lines arrive (``synchronizeIfDue(now:)``) and when the log is closed, so
/// after a power cut at most the last second of lines is missing, and `--resume` runs those
/// entries again. Syncing every line would cost a disk flush per page.
///
/// The file is locked (`flock`) while the log is open, so two batches cannot append to it at once.
///
/// ```swift
/// let log = try ResultLog(path: "results.jsonl")
/// try log.append(record.line)
/// log.close()
/// ```
public final class ResultLog: @unchecked Sendable {
    /// What the log is called in messages: its path, or "standard output".
    public let name: String
    /// How long lines may wait for `fdatasync`, in seconds.
    public static let synchronizationInterval: Double = 1

    /// Whether the lines go to a terminal (standard output, not redirected).
    public let isTerminal: Bool

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let canSynchronize: Bool
    private let lock = NSLock()
    private var unsynchronized = false
    private var lastSynchronization = Date()
    private var closed = false

    /// Opens (creating it if needed) the file at `path` for appending, and locks it.
    ///
    /// - Throws: ``ResultLogError/unwritable(name:reason:)`` when it cannot be opened, and
    ///   ``ResultLogError/busy(name:)`` when another batch holds it.
    public init(path: String) throws(ResultLogError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unwritable(name: path, reason: errnoDescription(errno)) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            if code == EWOULDBLOCK { throw .busy(name: path) }
            throw .unwritable(name: path, reason: errnoDescription(code))
        }
        self.descriptor = descriptor
        name = path
        isTerminal = false
        ownsDescriptor = true
        canSynchronize = true
    }

    /// Writes to standard output, which is not closed; it is synchronised only when it is a
    /// regular file (`> results.jsonl`).
    public convenience init() {
        self.init(descriptor: STDOUT_FILENO, name: "standard output")
    }

    /// Writes to an open descriptor, which is not closed.
    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        isTerminal = isatty(descriptor) == 1
        ownsDescriptor = false
        var status = stat()
        canSynchronize = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Cuts the file to `length` bytes: drops the torn last line ``ResumeLedger`` found.
    public func truncate(to length: UInt64) throws(ResultLogError) {
        lock.lock()
        defer { lock.unlock() }
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .unwritable(name: name, reason: "cannot drop the torn last line: \(errnoDescription(errno))")
        }
    }

    /// Appends `line` and a newline in one `write` (continued if the kernel takes less).
    ///
    /// - Throws: ``ResultLogError/closedByReader(name:)`` when a pipe's reader went away,
    ///   ``ResultLogError/unwritable(name:reason:)`` for any other failure (a full disk).
    public func append(_ line: String) throws(ResultLogError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .unwritable(name: name, reason: "the log is closed") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
                continue
            }
            let code = errno
            if count < 0, code == EINTR { continue }
            if code == EPIPE { throw .closedByReader(name: name) }
            throw .unwritable(name: name, reason: count == 0 ? "nothing was written" : errnoDescription(code))
        }
        unsynchronized = true
    }

    /// Runs `fdatasync` when lines have waited for it ``synchronizationInterval`` or longer.
    public func synchronizeIfDue(now: Date = Date()) {
        lock.lock()
        defer { lock.unlock() }
        guard unsynchronized, now.timeIntervalSince(lastSynchronization) >= Self.synchronizationInterval else { return }
        synchronizeLocked(now: now)
    }

    /// Synchronises what is left and closes the file (releasing its lock). Idempotent.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        if unsynchronized { synchronizeLocked(now: Date()) }
        closed = true
        if ownsDescriptor { closeDescriptor(descriptor) }
    }

    /// Runs `body` while no line is being written, for a last-resort exit that must not tear one.
    public func withNoWriteInProgress<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func synchronizeLocked(now: Date) {
        if canSynchronize { _ = fdatasync(descriptor) }
        unsynchronized = false
        lastSynchronization = now
    }
}

/// `close(2)`, out of the reach of ``ResultLog/close()``'s name.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}

/// Why a batch's records could not be written.
public enum ResultLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or written (a full disk, no permission).
    case unwritable(name: String, reason: String)
    /// Another batch is writing the file.
    case busy(name: String)
    /// The reader of the pipe went away (`pagescript batch ... | head`).
    case closedByReader(name: String)

    public var description: String {
        switch self {
        case let .unwritable(name, reason): "cannot write \(name): \(reason)"
        case let .busy(name): "\(name) is being written by another pagescript batch"
        case let .closedByReader(name): "the reader of \(name) went away"
        }
    }
}
