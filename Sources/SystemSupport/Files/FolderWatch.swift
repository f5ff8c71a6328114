import Foundation

/// Follows the files of one folder with inotify and tells which were saved, once each save has
/// settled.
///
/// The folder is watched, not its files: an editor that writes a temporary file and renames it
/// over the old one (and `sed -i`, which does the same) replaces the file's inode, and a watch on
/// that inode would see the old file go and nothing more. A file counts as saved when a writer
/// closes it (`>`, `>>`, an editor writing in place), when a file is renamed to its name, and when
/// it is deleted or renamed away. The events of one save come in a burst (a truncation, writes, a
/// close; or a temporary file written and renamed), so a name is handed out only once it has been
/// quiet for ``quietPeriod``: one save, one name, however many events it took.
///
/// A thread of its own reads the events; ``settledNames()`` and ``nextSettledNames(isStopped:)``
/// take what has settled. ``cancel()`` ends the thread and closes the descriptor.
///
/// ```swift
/// let watch = try FolderWatch(folder: library.directory)
/// while let names = await watch.nextSettledNames(isStopped: { stop.isClaimed }) {
///     for name in names where name.hasSuffix(".user.js") { reload(name) }
/// }
/// ```
public final class FolderWatch: @unchecked Sendable {
    /// The folder could not be watched; the description says why.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The folder watched.
    public let folder: URL
    /// How long a name must go without events before its save counts as finished.
    public let quietPeriod: Duration

    private let state: State

    /// What the reading thread shares with the takers. Apart from the watch so that the thread
    /// keeps this alive, not the watch, whose `deinit` can then end the thread.
    private final class State: @unchecked Sendable {
        let descriptor: Int32
        // Guards `lastEvents` and `isCancelled`, shared by the reading thread and the takers,
        // which makes @unchecked Sendable sound.
        let lock = NSLock()
        var lastEvents: [String: ContinuousClock.Instant] = [:]
        var isCancelled = false
        let readerEnded = DispatchSemaphore(value: 0)

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }
    }

    /// The events that mean a file of the folder now holds what a writer meant it to hold, or is gone.
    private static let savingEvents = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)

    /// Starts watching `folder`.
    ///
    /// - Throws: ``Failure`` when the folder is not there or the kernel refuses a watch (the
    ///   per-user limit of inotify instances or watches).
    public init(folder: URL, quietPeriod: Duration = .milliseconds(80)) throws(Failure) {
        self.folder = folder
        self.quietPeriod = quietPeriod
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw Failure(description: "cannot follow \(folder.path(percentEncoded: false)): inotify: \(errnoDescription(currentErrno))")
        }
        guard inotify_add_watch(descriptor, folder.path(percentEncoded: false), Self.savingEvents | UInt32(IN_ONLYDIR)) >= 0 else {
            let reason = errnoDescription(currentErrno)
            close(descriptor)
            throw Failure(description: "cannot follow \(folder.path(percentEncoded: false)): \(reason)")
        }
        let state = State(descriptor: descriptor)
        self.state = state
        let reader = Thread { [folder] in Self.readEvents(into: state, folder: folder, wakingEvery: quietPeriod) }
        reader.name = "FolderWatch"
        reader.start()
    }

    deinit {
        cancel()
    }

    /// The names whose saves have settled since the last call, sorted; empty when none has.
    public func settledNames() -> [String] {
        let now = ContinuousClock.now
        return state.lock.withLock {
            let settled = state.lastEvents.filter { now - $0.value >= quietPeriod }.map(\.key)
            for name in settled { state.lastEvents[name] = nil }
            return settled.sorted()
        }
    }

    /// Waits until at least one save has settled and returns the names; `nil` once `isStopped`
    /// says so, the task is cancelled or the watch is.
    public func nextSettledNames(isStopped: @Sendable () -> Bool) async -> [String]? {
        while !isStopped(), !Task.isCancelled, !state.lock.withLock({ state.isCancelled }) {
            let names = settledNames()
            if !names.isEmpty { return names }
            try? await Task.sleep(for: quietPeriod / 4)
        }
        return nil
    }

    /// Stops watching; idempotent. The descriptor is closed once the reading thread has let go of it.
    public func cancel() {
        let first = state.lock.withLock {
            defer { state.isCancelled = true }
            return !state.isCancelled
        }
        guard first else { return }
        state.readerEnded.wait()
        close(state.descriptor)
    }

    /// The reading thread: waits for events (waking regularly to see a cancel) and records when
    /// each name last had one.
    private static func readEvents(into state: State, folder: URL, wakingEvery interval: Duration) {
        defer { state.readerEnded.signal() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var poller = pollfd(fd: state.descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000
        let wake = Int32(max(1, milliseconds))
        while !state.lock.withLock({ state.isCancelled }) {
            guard poll(&poller, 1, wake) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(state.descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            let names = Self.names(in: buffer[..<count])
            // An overflow loses names: every file of the folder is taken as saved rather than none.
            let everything = names.contains(nil) ? (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? [] : []
            let now = ContinuousClock.now
            state.lock.withLock {
                for name in names.compactMap({ $0 }) + everything { state.lastEvents[name] = now }
            }
        }
    }

    /// The file names in a read of inotify events; `nil` for a queue overflow.
    static func names(in bytes: ArraySlice<UInt8>) -> [String?] {
        let headerSize = MemoryLayout<inotify_event>.size
        var names: [String?] = []
        var offset = bytes.startIndex
        while offset + headerSize <= bytes.endIndex {
            let (mask, length) = bytes[offset..<(offset + headerSize)].withUnsafeBytes { header in
                (header.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.mask)!, as: UInt32.self),
                 Int(header.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.len)!, as: UInt32.self)))
            }
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + length, bytes.endIndex)
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                names.append(nil)
            } else if length > 0 {
                // The name is padded with NULs to an alignment boundary.
                let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                if !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
            }
            offset = nameEnd
        }
        return names
    }
}
