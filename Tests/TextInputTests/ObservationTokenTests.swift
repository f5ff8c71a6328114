import Foundation
import Testing
import TextInput

struct ObservationTokenTests {
    static let textDidChange = Notification.Name("PageScriptTestTextDidChange")

    @Test
    func observesOnlyTheScopedObject() {
        let center = NotificationCenter()
        let textView = NSObject()
        let otherView = NSObject()
        let received = LockedCounter()
        let token = center.observe(Self.textDidChange, object: textView) { _ in received.increment() }
        center.post(name: Self.textDidChange, object: textView)
        center.post(name: Self.textDidChange, object: otherView)
        center.post(name: Self.textDidChange, object: nil)
        center.post(name: Notification.Name("Other"), object: textView)
        #expect(received.value == 1)
        #expect(!token.isCancelled)
    }

    @Test
    func releasingTheTokenStopsDelivery() {
        let center = NotificationCenter()
        let received = LockedCounter()
        weak var released: ObservationToken?
        do {
            let token = center.observe(Self.textDidChange) { _ in received.increment() }
            released = token
            center.post(name: Self.textDidChange, object: nil)
        }
        #expect(released == nil)
        center.post(name: Self.textDidChange, object: nil)
        #expect(received.value == 1)
    }

    @Test
    func cancelStopsDeliveryAndIsIdempotent() {
        let center = NotificationCenter()
        let received = LockedCounter()
        let token = center.observe(Self.textDidChange) { _ in received.increment() }
        token.cancel()
        token.cancel()
        #expect(token.isCancelled)
        center.post(name: Self.textDidChange, object: nil)
        #expect(received.value == 0)
    }

    @Test
    func tokenRunsItsActionExactlyOnce() {
        let ran = LockedCounter()
        do {
            let token = ObservationToken { ran.increment() }
            token.cancel()
            token.cancel()
        }
        #expect(ran.value == 1)
        do {
            _ = ObservationToken { ran.increment() }
        }
        #expect(ran.value == 2, "releasing an uncancelled token runs its action")
    }

    @Test(arguments: [2, 8, 64])
    func concurrentCancelsRunTheActionOnce(threads: Int) {
        for _ in 0..<50 {
            let ran = LockedCounter()
            let token = ObservationToken { ran.increment() }
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                token.cancel()
                #expect(token.isCancelled)
            }
            #expect(ran.value == 1)
        }
    }

    @Test
    func concurrentCancelsWhilePostingRemoveEveryObserver() {
        let center = NotificationCenter()
        let received = LockedCounter()
        let tokens = (0..<32).map { _ in center.observe(Self.textDidChange) { _ in received.increment() } }
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if index.isMultiple(of: 2) {
                tokens[index / 2].cancel()
                tokens[(index / 2 + 7) % tokens.count].cancel()
            } else {
                center.post(name: Self.textDidChange, object: nil)
            }
        }
        #expect(tokens.allSatisfy { $0.isCancelled })
        let before = received.value
        center.post(name: Self.textDidChange, object: nil)
        #expect(received.value == before)
    }

    @Test
    func actionMayTouchTheTokenAgain() {
        let center = NotificationCenter()
        let box = TokenBox()
        box.token = center.observe(Self.textDidChange) { _ in box.token?.cancel() }
        center.post(name: Self.textDidChange, object: nil)
        #expect(box.token?.isCancelled == true, "cancelling from inside a delivery does not deadlock")
    }

    @Test
    func changeNotifierCallsHandlersUntilTheirTokenEnds() {
        let notifier = ChangeNotifier()
        let first = LockedCounter()
        let second = LockedCounter()
        let firstToken = notifier.observe { first.increment() }
        var secondToken: ObservationToken? = notifier.observe { second.increment() }
        notifier.notifyChange()
        secondToken = nil
        notifier.notifyChange()
        #expect(first.value == 2)
        #expect(second.value == 1)
        #expect(secondToken == nil && !firstToken.isCancelled)
    }

    @Test
    func changeNotifierIsSafeAcrossThreads() {
        let notifier = ChangeNotifier()
        let calls = LockedCounter()
        let kept = notifier.observe { calls.increment() }
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index.isMultiple(of: 4) {
                let token = notifier.observe { calls.increment() }
                token.cancel()
            } else {
                notifier.notifyChange()
            }
        }
        #expect(calls.value >= 150)
        kept.cancel()
        let before = calls.value
        notifier.notifyChange()
        #expect(calls.value == before)
    }
}
