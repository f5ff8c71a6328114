#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Testing
import TextInput

@Suite("KeyboardObserver streams", .timeLimit(.minutes(1)))
struct KeyboardObserverTests {
    /// One event per phase, each with its own end frame so that order and identity both show.
    private static let events: [KeyboardEvent] = KeyboardPhase.allCases.enumerated().map { index, phase in
        KeyboardEvent(
            phase: phase,
            beginFrame: CGRect(x: 0, y: 667, width: 375, height: 216),
            endFrame: CGRect(x: 0, y: 451 - CGFloat(index), width: 375, height: 216 + CGFloat(index)),
            animationDuration: 0.25,
            animationCurve: 7,
            isLocal: true
        )
    }

    private func post(_ event: KeyboardEvent, on center: NotificationCenter) {
        let userInfo = KeyboardPayload.userInfo(
            begin: event.beginFrame, end: event.endFrame, duration: event.animationDuration,
            curve: event.animationCurve, isLocal: event.isLocal
        )
        center.post(name: event.phase.notificationName, object: nil, userInfo: userInfo)
    }

    private func collect(_ stream: AsyncStream<KeyboardObserver.Update>) async -> [KeyboardObserver.Update] {
        var updates: [KeyboardObserver.Update] = []
        for await update in stream {
            updates.append(update)
        }
        return updates
    }

    private func successes(_ updates: [KeyboardObserver.Update]) -> [KeyboardEvent] {
        updates.compactMap { try? $0.get() }
    }

    @Test("The async stream sees every event in order and nothing after cancel")
    func streamThenCancel() async {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        let stream = observer.updates()
        for event in Self.events {
            post(event, on: center)
        }
        observer.cancel()
        for event in Self.events {
            post(event, on: center)
        }
        let received = await collect(stream)
        #expect(successes(received) == Self.events)
        #expect(received.count == Self.events.count)
        #expect(observer.isCancelled)
    }

    @Test("The async stream finishes when the observer is released, and later posts go nowhere")
    func streamThenRelease() async {
        let center = NotificationCenter()
        var observer: KeyboardObserver? = KeyboardObserver(center: center)
        weak let released = observer
        let stream = observer?.updates() ?? AsyncStream { $0.finish() }
        post(Self.events[0], on: center)
        post(Self.events[1], on: center)
        observer = nil
        #expect(released == nil)
        for event in Self.events {
            post(event, on: center)
        }
        let received = await collect(stream)
        #expect(successes(received) == Array(Self.events.prefix(2)))
    }

    @Test("Streams are independent, and one made after cancel is already finished")
    func independentStreams() async {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        let early = observer.updates()
        post(Self.events[0], on: center)
        let late = observer.updates()
        post(Self.events[1], on: center)
        observer.cancel()
        let afterCancel = observer.updates()
        post(Self.events[2], on: center)

        #expect(successes(await collect(early)) == Array(Self.events[0...1]))
        #expect(successes(await collect(late)) == [Self.events[1]])
        #expect(await collect(afterCancel).isEmpty)
    }

    @Test("Ending one consumer leaves the others running")
    func consumerEnds() async {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        let abandoned = Task { await collect(observer.updates()) }
        abandoned.cancel()
        _ = await abandoned.value
        let kept = observer.updates()
        post(Self.events[3], on: center)
        observer.cancel()
        #expect(successes(await collect(kept)) == [Self.events[3]])
    }

    @Test("The publisher sees every event in order, completes on cancel, and gets nothing after")
    func publisherThenCancel() {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        let values = KeyboardRecorder<KeyboardObserver.Update>()
        let completions = KeyboardRecorder<Bool>()
        let subscription = observer.publisher.sink(
            receiveCompletion: { _ in completions.record(true) },
            receiveValue: { values.record($0) }
        )
        for event in Self.events {
            post(event, on: center)
        }
        #expect(successes(values.values) == Self.events)
        observer.cancel()
        observer.cancel()
        for event in Self.events {
            post(event, on: center)
        }
        #expect(values.values.count == Self.events.count)
        #expect(completions.values == [true])
        subscription.cancel()
    }

    @Test("The publisher completes when the observer is released, and later posts go nowhere")
    func publisherThenRelease() {
        let center = NotificationCenter()
        var observer: KeyboardObserver? = KeyboardObserver(center: center)
        weak let released = observer
        let values = KeyboardRecorder<KeyboardObserver.Update>()
        let completions = KeyboardRecorder<Bool>()
        let subscription = observer?.publisher.sink(
            receiveCompletion: { _ in completions.record(true) },
            receiveValue: { values.record($0) }
        )
        post(Self.events[4], on: center)
        observer = nil
        #expect(released == nil)
        for event in Self.events {
            post(event, on: center)
        }
        #expect(successes(values.values) == [Self.events[4]])
        #expect(completions.values == [true])
        subscription?.cancel()
    }

    @Test("Subscribing after cancel receives the completion at once")
    func publisherAfterCancel() {
        let observer = KeyboardObserver(center: NotificationCenter())
        observer.cancel()
        let completions = KeyboardRecorder<Bool>()
        let subscription = observer.publisher.sink(
            receiveCompletion: { _ in completions.record(true) },
            receiveValue: { _ in Issue.record("no value expected after cancel") }
        )
        #expect(completions.values == [true])
        subscription.cancel()
    }

    @Test("The change callback sees every event, stops after cancel, and may cancel from inside")
    func callback() {
        let center = NotificationCenter()
        let phases = KeyboardRecorder<KeyboardPhase>()
        let observer = KeyboardObserver(center: center) { update in
            if case .success(let event) = update {
                phases.record(event.phase)
            }
        }
        for event in Self.events {
            post(event, on: center)
        }
        #expect(phases.values == KeyboardPhase.allCases)
        observer.cancel()
        post(Self.events[0], on: center)
        #expect(phases.values == KeyboardPhase.allCases)
    }

    @Test("A callback that reads and cancels the observer does not deadlock")
    func reentrantCallback() {
        let center = NotificationCenter()
        let seen = KeyboardRecorder<KeyboardEvent?>()
        let holder = KeyboardRecorder<KeyboardObserver>()
        let observer = KeyboardObserver(center: center) { _ in
            let observer = holder.values.first
            seen.record(observer?.currentEvent)
            observer?.cancel()
        }
        holder.record(observer)
        post(Self.events[0], on: center)
        post(Self.events[1], on: center)
        #expect(seen.values == [Self.events[0]])
        #expect(observer.isCancelled)
    }

    @Test("Unreadable notifications are reported in order with what was wrong, and the stream goes on")
    func errorsReported() async {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        let stream = observer.updates()
        post(Self.events[0], on: center)
        var broken = KeyboardPayload.userInfo(begin: .zero, end: .zero)
        broken[KeyboardUserInfoKey.animationCurve.rawValue] = "easeInOut"
        center.post(name: KeyboardPhase.willChangeFrame.notificationName, object: nil, userInfo: broken)
        center.post(name: KeyboardPhase.didHide.notificationName, object: nil, userInfo: nil)
        post(Self.events[1], on: center)

        #expect(observer.currentEvent == Self.events[1])
        #expect(observer.lastError == .missingUserInfo(phase: .didHide))
        observer.cancel()
        let received = await collect(stream)
        #expect(received.count == 4)
        #expect((try? received[0].get()) == Self.events[0])
        guard received.count == 4 else { return }
        guard case .failure(.mismatchedValue(key: .animationCurve, _, let found)) = received[1] else {
            Issue.record("expected a curve error, got \(received[1])")
            return
        }
        #expect(found.contains("easeInOut"))
        guard case .failure(.missingUserInfo(phase: .didHide)) = received[2] else {
            Issue.record("expected a missing userInfo error, got \(received[2])")
            return
        }
        #expect((try? received[3].get()) == Self.events[1])
    }

    @Test("Only the given center is observed")
    func ownCenterOnly() {
        let center = NotificationCenter()
        let other = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        post(Self.events[0], on: other)
        #expect(observer.currentEvent == nil)
        post(Self.events[0], on: center)
        #expect(observer.currentEvent == Self.events[0])
    }

    @Test("Notifications posted off the main thread are handled, the callback running on the posting thread")
    func postingThread() async {
        let center = NotificationCenter()
        let callbackThreads = KeyboardRecorder<ObjectIdentifier>()
        let postingThreads = KeyboardRecorder<ObjectIdentifier>()
        let observer = KeyboardObserver(center: center) { _ in
            callbackThreads.record(ObjectIdentifier(Thread.current))
        }
        let stream = observer.updates()
        let event = Self.events[2]
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                postingThreads.record(ObjectIdentifier(Thread.current))
                // The payload is built on this thread: `[AnyHashable: Any]` is not Sendable.
                center.post(
                    name: event.phase.notificationName, object: nil,
                    userInfo: KeyboardPayload.userInfo(begin: event.beginFrame, end: event.endFrame)
                )
                done.resume()
            }
            thread.start()
        }
        observer.cancel()
        #expect(postingThreads.values.count == 1)
        #expect(callbackThreads.values == postingThreads.values)
        #expect(successes(await collect(stream)) == [event])
    }
}
