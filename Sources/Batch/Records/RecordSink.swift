/// Where the workers hand their records: written at once, or, in input order, as soon as every
/// earlier entry is written; as JSON lines, or as CSV rows (``RecordTable``, which may hold the
/// first records until it knows its columns; ``finish()`` writes what it holds).
///
/// In input order a slow page holds back the records after it; they wait here, at most
/// `capacity` of them: a worker asks ``waitForRoom(before:)`` before it starts a page further
/// ahead, so memory stays bounded whatever the input's length. Entries an earlier run recorded
/// (``ResumeLedger``) count as written.
actor RecordSink {
    private let log: ResultLog
    private let ledger: ResumeLedger
    private let ordered: Bool
    private let capacity: Int
    private var table: RecordTable?
    private let startedAt: Double
    private var nextIndex = 0
    private var waiting: [Int: BatchRecord] = [:]
    private var roomWaiters: [(index: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var released = false
    private var rate = RateWindow()
    private(set) var written = 0
    private(set) var statusCounts: [RecordStatus: Int] = [:]
    /// The first write that failed; nothing is written after it.
    private(set) var failure: ResultLogError?

    init(log: ResultLog, ledger: ResumeLedger, ordered: Bool, capacity: Int, startedAt: Double, table: RecordTable? = nil) {
        self.log = log
        self.table = table
        self.ledger = ledger
        self.ordered = ordered
        self.capacity = max(1, capacity)
        self.startedAt = startedAt
        while ledger.isDone(nextIndex) { nextIndex += 1 }
    }

    /// Returns once entry `index` may start without more than `capacity` records waiting for
    /// earlier ones (at once when records are written in completion order), or once the batch
    /// stops (``release()``).
    func waitForRoom(before index: Int) async {
        guard ordered, !released, index >= nextIndex + capacity else { return }
        await withCheckedContinuation { continuation in
            roomWaiters.append((index, continuation))
        }
    }

    /// Writes `record` (or keeps it until the records before it are written). Returns false when
    /// writing failed; see ``failure``.
    @discardableResult
    func submit(_ record: BatchRecord) -> Bool {
        guard failure == nil else { return false }
        guard ordered else { return write(record) }
        waiting[record.index] = record
        while let next = waiting.removeValue(forKey: nextIndex) {
            guard write(next) else { return false }
            nextIndex += 1
            skipRecordedEntries()
        }
        wakeWaiters()
        return true
    }

    /// Lets every waiting worker go: the batch is stopping.
    func release() {
        released = true
        let waiters = roomWaiters
        roomWaiters.removeAll()
        waiters.forEach { $0.continuation.resume() }
    }

    /// Records per second lately, and how many have been written.
    func progress(now: Double) -> (written: Int, statusCounts: [RecordStatus: Int], rate: Double?) {
        (written, statusCounts, rate.rate(at: now, startedAt: startedAt))
    }

    /// Lets the log sync what waited long enough (see ``ResultLog``).
    func synchronizeIfDue() {
        log.synchronizeIfDue()
    }

    /// Writes what a CSV table still holds (its header, the records that waited for it). Returns
    /// false when writing failed; see ``failure``.
    @discardableResult
    func finish() -> Bool {
        guard failure == nil, var table else { return failure == nil }
        let rows = table.remainingRows()
        self.table = table
        return write(rows)
    }

    private func write(_ record: BatchRecord) -> Bool {
        guard var table else { return write([(record.line, record.status)]) }
        let rows = table.rows(for: record)
        self.table = table
        return write(rows)
    }

    /// Writes `lines`, counting each that holds a record (a header holds none).
    private func write(_ lines: [(line: String, status: RecordStatus?)]) -> Bool {
        for (line, status) in lines {
            do {
                try log.append(line)
            } catch {
                failure = error
                release()
                return false
            }
            guard let status else { continue }
            written += 1
            statusCounts[status, default: 0] += 1
            rate.record(at: MonotonicClock.now())
        }
        return true
    }

    private func skipRecordedEntries() {
        while ledger.isDone(nextIndex) { nextIndex += 1 }
    }

    private func wakeWaiters() {
        guard !roomWaiters.isEmpty else { return }
        let limit = nextIndex + capacity
        let ready = roomWaiters.filter { $0.index < limit }
        roomWaiters.removeAll { $0.index < limit }
        ready.forEach { $0.continuation.resume() }
    }
}
