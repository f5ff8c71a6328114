import Dispatch

/// Hands the input's entries to the workers one at a time, reading ahead a few hundred at most.
///
/// Reading happens on a queue of its own (standard input may block for as long as its writer
/// likes), never on Swift's cooperative pool. Entries an earlier run recorded are skipped here,
/// after checking that the input still has the same text under each recorded index.
actor EntryFeed {
    /// What ``next()`` returns.
    enum Item: Sendable {
        case entry(BatchEntry)
        case end
        case failed(BatchFailure)
    }

    /// How many entries are read ahead.
    static let readAhead = 256

    private let reader: ReaderBox
    private let ledger: ResumeLedger
    private var buffered: [BatchEntry] = []
    private var position = 0
    private var reachedEnd = false
    private var closed = false
    private var failure: BatchFailure?
    private var refill: Task<Void, Never>?

    init(reader: sending URLListReader, ledger: ResumeLedger) {
        self.reader = ReaderBox(reader)
        self.ledger = ledger
    }

    /// The next entry to run, the end of the input, or why reading failed.
    func next() async -> Item {
        while true {
            if closed { return .end }
            if position < buffered.count {
                position += 1
                return .entry(buffered[position - 1])
            }
            if let failure { return .failed(failure) }
            if reachedEnd { return .end }
            if let refill {
                await refill.value
                continue
            }
            let reader = reader
            let task = Task {
                let batch = await reader.read(upTo: Self.readAhead)
                self.store(batch)
            }
            refill = task
            await task.value
        }
    }

    /// Hands out nothing more: the batch is stopping.
    func close() {
        closed = true
    }

    private func store(_ batch: (entries: [BatchEntry], error: BatchInputError?, atEnd: Bool)) {
        refill = nil
        buffered = []
        position = 0
        for entry in batch.entries {
            guard ledger.isDone(entry.index) else {
                buffered.append(entry)
                continue
            }
            guard ledger.matches(entry) else {
                failure = .inputChanged(line: entry.line, index: entry.index)
                break
            }
        }
        if failure == nil, let error = batch.error { failure = .input(error) }
        reachedEnd = batch.atEnd
    }
}

/// The reader and the queue it is read on: the reader is only ever touched there.
private final class ReaderBox: @unchecked Sendable {
    private let reader: URLListReader
    private let queue = DispatchQueue(label: "pagescript.batch.input")

    init(_ reader: sending URLListReader) {
        self.reader = reader
    }

    func read(upTo count: Int) async -> (entries: [BatchEntry], error: BatchInputError?, atEnd: Bool) {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                var entries: [BatchEntry] = []
                do throws(BatchInputError) {
                    while entries.count < count, let entry = try reader.nextEntry() {
                        entries.append(entry)
                    }
                    continuation.resume(returning: (entries, nil, entries.count < count))
                } catch {
                    continuation.resume(returning: (entries, error, true))
                }
            }
        }
    }
}
