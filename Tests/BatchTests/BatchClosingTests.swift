import Batch
import Engines
import Foundation
import PageRuntime
import SystemSupport
import Testing

/// What `batch` does around its runner, without the binary: the closing line and the verdict its
/// exit status comes from, the progress display, and where sessions come from.
struct BatchClosingTests {
    static func summary(_ ending: BatchEnding, failed: Int = 0) -> BatchSummary {
        var progress = BatchProgress()
        progress.done = 3 + failed
        progress.statusCounts = [.ok: 3, .timeout: failed]
        return BatchSummary(ending: ending, progress: progress)
    }

    @Test func aCompletedBatchNamesItsRecordsAndFailsWhenAPageFailed() {
        let done = BatchVerdict.closing(Self.summary(.completed), outputPath: "out\u{1B}.jsonl", sessionWait: 300)
        #expect(done.verdict == .succeeded)
        #expect(done.line?.hasSuffix("; records in out\\e.jsonl") == true)
        #expect(BatchVerdict.closing(Self.summary(.completed, failed: 1), outputPath: nil, sessionWait: 300).verdict == .pagesFailed)
    }

    @Test func aStoppedBatchSaysHowToContinue() {
        let stopped = BatchVerdict.closing(Self.summary(.stopped(signal: SIGINT)), outputPath: "out.jsonl", sessionWait: 300)
        #expect(stopped.verdict == .stopped(signal: SIGINT))
        #expect(stopped.line?.hasSuffix("; stopped; continue with: --output out.jsonl --resume") == true)
    }

    @Test func lostSessionsNameTheWaitAndAClosedReaderEndsQuietly() {
        let lost = BatchVerdict.closing(Self.summary(.sessionsLost(reason: "grid full")), outputPath: nil, sessionWait: 120)
        #expect(lost.verdict == .noSession("no session for 120 s, so the batch stopped: grid full"))
        let gone = BatchVerdict.closing(Self.summary(.failed(.output(.closedByReader(name: "standard output")))), outputPath: nil,
                                        sessionWait: 300)
        #expect(gone.line == nil)
        #expect(gone.verdict == .readerGone)
    }

    @Test func theProgressLineIsDrawnOnlyOnATerminalAndTheWaitIsNotedOnce() {
        let written = Written()
        let display = ProgressDisplay(onTerminal: false) { written.append($0) }
        var progress = BatchProgress()
        progress.waitingForSession = 1
        progress.waitReason = "grid\u{1B} full"
        display.show(progress)
        display.show(progress)
        display.finish()
        #expect(written.texts == ["pagescript batch: waiting for a session, with backoff: grid\\e full\n"])
        let onTerminal = Written()
        let drawn = ProgressDisplay(onTerminal: true) { onTerminal.append($0) }
        drawn.show(BatchProgress())
        drawn.finish()
        #expect(onTerminal.texts.count == 2)
        #expect(onTerminal.texts.first?.hasPrefix("\r\u{1B}[K") == true)
        #expect(onTerminal.texts.last == "\r\u{1B}[K")
    }

    @Test func aBatchRefusesTheUsersOwnBrowserAVisibleOneAndCapabilitiesThatAreNotAnObject() {
        #expect(throws: BatchSetupError.attachRefused) {
            try SessionSources.source(for: .local(.chromium, options: LaunchOptions(attachAddress: "127.0.0.1:9222")))
        }
        #expect(throws: BatchSetupError.visibleOrKeptBrowserRefused) {
            try SessionSources.source(for: .local(.chromium, options: LaunchOptions(profileDirectory: "/tmp/profile")))
        }
        #expect(throws: BatchSetupError.capabilitiesNotAnObject) {
            try SessionSources.source(for: .remote(URL(string: "http://127.0.0.1:4444")!, browserName: nil), capabilities: "[1]")
        }
        #expect((try? SessionSources.source(for: .local(.webkit))) is LocalWebKitSource)
        #expect((try? SessionSources.source(for: .local(.chromium))) is LocalChromiumSource)
    }
}

/// What a display wrote, in order.
final class Written: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ text: String) {
        lock.withLock { stored.append(text) }
    }

    var texts: [String] {
        lock.withLock { stored }
    }
}
