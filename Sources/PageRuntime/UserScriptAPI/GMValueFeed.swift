import Foundation
import GMAPI
import SystemSupport
import UserScripts

/// The value changes a ``GMHost`` knows of, in order, for `GM_addValueChangeListener`'s
/// `remote: true`: what its runs wrote (in any tab the host serves) and what another process
/// wrote to the library's values files, noticed when a file's ``GMAPI/ValueFileStamp`` changed.
///
/// Each run takes the changes made after its snapshot of the values through its ``Cursor``,
/// never those it made itself: the page half applies them to the run's copy of the values and
/// calls its listeners. The host's own writes go through ``write(_:by:of:using:)``, under the
/// feed's lock, so that a look at the files never takes them for another process's.
final class GMValueFeed: @unchecked Sendable {
    /// One change, numbered in the order the feed learnt of it.
    struct Entry: Sendable {
        let number: Int
        let script: ScriptID
        let change: ValueChange
        /// The run that made it; `nil` for a change another process made.
        let run: String?
    }

    /// Where one run stands in the feed: the number of the last change it has (in its snapshot
    /// or given since). Moved only under the feed's lock.
    final class Cursor: @unchecked Sendable {
        fileprivate var position: Int

        fileprivate init(position: Int) {
            self.position = position
        }
    }

    /// How many changes are kept; a run that falls further behind misses the oldest.
    static let keptChanges = 512

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var count = 0
    /// A library script's values as the feed last saw them in its file, with the file's stamp.
    private var known: [ScriptID: (values: ScriptValues, stamp: ValueFileStamp?)] = [:]

    /// A library script's values for a run's snapshot, with a cursor at the feed's end: every
    /// change after the snapshot reaches the run.
    func snapshot(of script: ScriptID, in store: ScriptValueStore) throws(ValueStoreError) -> (values: ScriptValues, cursor: Cursor) {
        lock.lock()
        defer { lock.unlock() }
        let cursor = Cursor(position: count)
        let stamp = store.fileStamp(of: script)
        let values = try store.values(of: script)
        noteLocked(values, stamp: stamp, of: script)
        return (values, cursor)
    }

    /// A cursor at the feed's end, for a run whose values are not in the library.
    func cursor() -> Cursor {
        lock.withLock { Cursor(position: count) }
    }

    /// Writes `changes` that `run` made to a library script's values with `write` (which returns
    /// the values as written and the file's new stamp) and records them, after whatever else the
    /// written file shows changed since the feed last saw it (another process's writes).
    func write<Failure: Error>(_ changes: [ValueChange], by run: String, of script: ScriptID,
                               using write: () throws(Failure) -> (values: ScriptValues, stamp: ValueFileStamp?)) throws(Failure) {
        lock.lock()
        defer { lock.unlock() }
        let written = try write()
        if let before = known[script] {
            appendLocked(written.values.changes(since: before.values.applying(changes)), of: script, by: nil)
        }
        appendLocked(changes, of: script, by: run)
        known[script] = written
    }

    /// Records `changes` that `run` made to the values of a script that is not in the library.
    func record(_ changes: [ValueChange], by run: String, of script: ScriptID) {
        lock.withLock { appendLocked(changes, of: script, by: run) }
    }

    /// Looks at the files of `scripts` and records what another process changed in those whose
    /// stamps are new since the feed last saw them.
    func look(at scripts: Set<ScriptID>, in store: ScriptValueStore) {
        lock.withLock {
            for script in scripts {
                guard let before = known[script] else { continue }
                let stamp = store.fileStamp(of: script)
                guard stamp != before.stamp, let values = try? store.values(of: script) else { continue }
                noteLocked(values, stamp: stamp, of: script)
            }
        }
    }

    /// The changes to `script`'s values past `cursor` that `run` did not make itself; the cursor
    /// moves to the feed's end.
    func changes(of script: ScriptID, for run: String, at cursor: Cursor) -> [Entry] {
        lock.withLock {
            defer { cursor.position = count }
            return entries.filter { $0.number > cursor.position && $0.script == script && $0.run != run }
        }
    }

    /// Takes `values`, read from the file with `stamp`, as the script's latest when they are
    /// newer than what the feed has, recording the difference as another process's changes.
    private func noteLocked(_ values: ScriptValues, stamp: ValueFileStamp?, of script: ScriptID) {
        guard let before = known[script] else {
            known[script] = (values, stamp)
            return
        }
        guard values.revision > before.values.revision else {
            if values.revision == before.values.revision { known[script] = (before.values, stamp) }
            return
        }
        appendLocked(values.changes(since: before.values), of: script, by: nil)
        known[script] = (values, stamp)
    }

    private func appendLocked(_ changes: [ValueChange], of script: ScriptID, by run: String?) {
        for change in changes {
            count += 1
            entries.append(Entry(number: count, script: script, change: change, run: run))
        }
        if entries.count > Self.keptChanges { entries.removeFirst(entries.count - Self.keptChanges) }
    }
}
