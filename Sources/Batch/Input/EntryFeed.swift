import Dispatch
import Foundation

/// Hands the input's entries to the workers one at a time, reading ahead a few hundred at most,
/// and pages put back after their session died, before any new entry. With ``HostTurns`` that
/// hold pages back, the first page whose host may start now goes first, reading further ahead
/// (a few thousand at most) for one; the others keep their order.
///
/// Reading happens on a queue of its own (standard input may block for as long as its writer
/// likes), never on Swift's cooperative pool. Entries an earlier run recorded are skipped here,
/// after checking that the input still has the same text under each recorded index.
actor EntryFeed {
    /// What ``next()`` returns.
    enum Item: Sendable {
        /// An entry not tried yet.
        case entry(BatchEntry)
        /// A page whose session died under it, to try again on another session.
        case retry(PageAttempts)
        case end
        case failed(BatchFailure)
    }

    /// How many entries are read ahead.
    static let readAhead = 256
    /// How many entries are read ahead, at most, to find one whose host may start.
    static let readAheadForTurns = 4096
    /// How long a worker waits, at most, before looking again for a page whose host may start.
    static let turnPoll = 0.05

    private let reader: ReaderBox
    private let ledger: ResumeLedger
    private var buffered: [BatchEntry] = []
    /// The host of each entry of `buffered`, worked out once, while turns hold pages back.
    private var bufferedHosts: [String?] = []
    private var position = 0
    private var reachedEnd = false
    private var closed = false
    private var failure: BatchFailure?
    private var refill: Task<Void, Never>?
    private var retries: [PageAttempts] = []
    private var turns: HostTurns

    init(reader: sending InputReader, ledger: ResumeLedger, turns: HostTurns = HostTurns(limit: nil, delay: 0)) {
        self.reader = ReaderBox(reader)
        self.ledger = ledger
        self.turns = turns
    }

    /// The next page to run (a page to try again first), the end of the input, or why reading
    /// failed. A page handed out counts against its host's turns until ``ended(_:)``.
    func next() async -> Item {
        while true {
            if closed || Task.isCancelled { return .end }
            guard turns.holdsBack else {
                if !retries.isEmpty { return .retry(retries.removeFirst()) }
                if position < buffered.count {
                    position += 1
                    return .entry(buffered[position - 1])
                }
                if let failure { return .failed(failure) }
                if reachedEnd { return .end }
                await readMore()
                continue
            }
            let now = MonotonicClock.now()
            let turns = turns
            func mayStart(_ host: String?) -> Bool { turns.wait(before: host, at: now) == 0 }
            if let index = retries.firstIndex(where: { mayStart(HostTurns.host(of: $0.address)) }) {
                let retry = retries.remove(at: index)
                self.turns.start(HostTurns.host(of: retry.address), at: now)
                return .retry(retry)
            }
            if let index = bufferedHosts.indices.dropFirst(position).first(where: { mayStart(bufferedHosts[$0]) }) {
                self.turns.start(bufferedHosts.remove(at: index), at: now)
                return .entry(buffered.remove(at: index))
            }
            if retries.isEmpty, position == buffered.count {
                if let failure { return .failed(failure) }
                if reachedEnd { return .end }
            }
            // Every page waiting is held back by its host's turns: look further ahead, or wait.
            if !reachedEnd, failure == nil, buffered.count - position < Self.readAheadForTurns {
                await readMore()
            } else {
                let waiting = retries.map { HostTurns.host(of: $0.address) } + bufferedHosts[position...]
                let soonest = waiting.map { turns.wait(before: $0, at: now) }.min() ?? .infinity
                try? await Task.sleep(for: .seconds(min(soonest, Self.turnPoll)))
            }
        }
    }

    /// A page ``next()`` handed out (by the address it opened) is closed: its host's turn moves on.
    func ended(_ address: String) {
        turns.end(HostTurns.host(of: address))
    }

    /// The host an entry counts against: `nil` for a line that is not a page's address.
    private static func host(of entry: BatchEntry) -> String? {
        guard case let .page(address) = PageVisit.address(of: entry) else { return nil }
        return HostTurns.host(of: address)
    }

    /// Whether a page is waiting to be run: reads ahead when needed, so that a worker without a
    /// session asks for one only while there is something to run on it.
    func hasWork() async -> Bool {
        while true {
            if closed { return false }
            if !retries.isEmpty || position < buffered.count { return true }
            if failure != nil { return true }
            if reachedEnd { return false }
            await readMore()
        }
    }

    /// The next entry, if it needs no session because it is not a URL PageScript opens, with the
    /// reason; `nil` (leaving the entry where it is) otherwise. A worker without a session takes
    /// these, so that a list that starts with (or holds only) such lines starts no browser for them.
    func nextInvalid() async -> (entry: BatchEntry, reason: String)? {
        guard await hasWork(), retries.isEmpty, position < buffered.count else { return nil }
        let entry = buffered[position]
        guard case let .invalid(reason) = PageVisit.address(of: entry) else { return nil }
        position += 1
        return (entry, reason)
    }

    /// Puts a page back, to be run on the next session that is free.
    func putBack(_ page: PageAttempts) {
        retries.append(page)
    }

    /// Hands out nothing more: the batch is stopping.
    func close() {
        closed = true
    }

    private func readMore() async {
        if let refill {
            await refill.value
            return
        }
        let reader = reader
        let task = Task {
            let batch = await reader.read(upTo: Self.readAhead)
            self.store(batch)
        }
        refill = task
        await task.value
    }

    private func store(_ batch: (entries: [BatchEntry], error: BatchInputError?, atEnd: Bool)) {
        refill = nil
        // Entries not handed out yet (held back by their hosts' turns) stay, in front.
        buffered.removeFirst(position)
        if turns.holdsBack { bufferedHosts.removeFirst(position) }
        position = 0
        for entry in batch.entries {
            guard ledger.isDone(entry.index) else {
                buffered.append(entry)
                if turns.holdsBack { bufferedHosts.append(Self.host(of: entry)) }
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
    private let reader: InputReader
    private let queue = DispatchQueue(label: "pagescript.batch.input")

    init(_ reader: sending InputReader) {
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

/// A page that was tried and must be tried again, with what its record will need.
struct PageAttempts: Sendable {
    /// The entry.
    let entry: BatchEntry
    /// The address it opens.
    let address: String
    /// When its first attempt started.
    let startedAt: Date
    /// Attempts that count against ``BatchConfiguration/retries``.
    var attempts: Int
    /// Sessions lost under it that did not count (the endpoint itself went away).
    var uncountedLosses: Int
}
