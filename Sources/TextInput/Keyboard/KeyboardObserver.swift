#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Observes all six keyboard notifications on a notification center and reports each one, read
/// into a ``KeyboardEvent`` or a ``KeyboardEventError``, as one ordered stream.
///
/// The same updates are offered three ways: a change callback given at creation, ``updates()``
/// for `for await`, and ``publisher`` for Combine (OpenCombine on Linux). ``currentEvent`` holds
/// the latest event and ``lastError`` the latest failure, so a notification that cannot be read is
/// reported instead of crashing or disappearing.
///
/// The observer listens to every phase, including ``KeyboardPhase/willChangeFrame`` and
/// ``KeyboardPhase/didChangeFrame``, because height changes while the keyboard stays up (QuickType,
/// emoji or language switch, rotation, undocking) arrive only as those.
///
/// ```swift
/// let observer = KeyboardObserver(center: .default) { update in
///     MainActor.assumeIsolated {  // UIKit posts keyboard notifications on the main thread
///         guard case .success(let event) = update else { return }
///         let state = KeyboardState(event: event, viewFrame: frameInScreen, screenBounds: screen.bounds)
///         ...
///     }
/// }
/// ```
///
/// ## Threads
///
/// Nothing here needs the main thread. The callback runs, and the publisher emits, synchronously
/// on the thread that posted the notification, before `post` returns: for UIKit that is the main
/// thread, for a test or a simulator whatever thread posts. Values reach an ``updates()`` stream on
/// the posting thread too and are read by the consuming task on its own executor. Notifications
/// posted from one thread are reported in posting order; posts racing on several threads are
/// reported in the order they reach the observer.
///
/// ## Lifetime
///
/// ``cancel()``, or releasing the observer, removes its observers from the center, finishes every
/// stream, and completes the publisher; nothing posted afterwards is delivered. (An update already
/// being delivered on another thread when `cancel()` runs may still reach the callback.) The
/// center does not keep the observer alive.
public final class KeyboardObserver: @unchecked Sendable {
    /// One reported notification: the event it carried or why it could not be read.
    public typealias Update = Result<KeyboardEvent, KeyboardEventError>

    private let center: NotificationCenter
    private let onChange: (@Sendable (Update) -> Void)?
    private let subject = PassthroughSubject<Update, Never>()

    /// Guards every stored property below it; `@unchecked Sendable` rests on this lock.
    private let lock = NSLock()
    private var registrations: [any NSObjectProtocol] = []
    private var continuations: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextStreamID = 0
    private var isCancelledFlag = false
    private var latestEvent: KeyboardEvent?
    private var latestError: KeyboardEventError?

    /// Starts observing the six keyboard notifications on `center`.
    ///
    /// - Parameters:
    ///   - center: The center to observe: `NotificationCenter.default` in an app, a private center
    ///     in tests or simulations.
    ///   - onChange: Called with every update, on the thread that posted the notification.
    public init(center: NotificationCenter, onChange: (@Sendable (Update) -> Void)? = nil) {
        self.center = center
        self.onChange = onChange
        // The closures hold the observer weakly so that the center, which keeps them until they
        // are removed, does not keep the observer alive; `deinit` removes them.
        let registrations = KeyboardPhase.allCases.map { phase in
            center.addObserver(forName: phase.notificationName, object: nil, queue: nil) { [weak self] notification in
                self?.receive(notification)
            }
        }
        lock.withLock { self.registrations = registrations }
    }

    deinit {
        cancel()
    }

    /// The most recent event that was read successfully, or `nil` before the first one.
    public var currentEvent: KeyboardEvent? {
        lock.withLock { latestEvent }
    }

    /// The most recent notification that could not be read, kept until another one fails, or `nil`
    /// if none has.
    public var lastError: KeyboardEventError? {
        lock.withLock { latestError }
    }

    /// Whether ``cancel()`` has run, after which nothing more is reported.
    public var isCancelled: Bool {
        lock.withLock { isCancelledFlag }
    }

    /// The current event as a given view sees it.
    ///
    /// - Parameters:
    ///   - viewFrame: The view's frame in the screen's coordinate space.
    ///   - screenBounds: The screen's bounds in the same space.
    /// - Returns: The view's ``KeyboardState``, or `nil` before the first event.
    public func currentState(viewFrame: CGRect, screenBounds: CGRect) -> KeyboardState? {
        currentEvent.map { KeyboardState(event: $0, viewFrame: viewFrame, screenBounds: screenBounds) }
    }

    /// A new stream of the updates posted from now on.
    ///
    /// Each call makes an independent stream; none of them drops an update. A stream finishes when
    /// the observer is cancelled or released, and one made after that is already finished. Ending
    /// the consuming task stops that stream alone.
    ///
    /// ```swift
    /// for await update in observer.updates() {
    ///     switch update {
    ///     case .success(let event): ...
    ///     case .failure(let error): logger.error("\(error.description)")
    ///     }
    /// }
    /// ```
    public func updates() -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .unbounded)
        let id = lock.withLock {
            nextStreamID += 1
            return nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            self?.removeStream(id)
        }
        let isRegistered = lock.withLock {
            guard !isCancelledFlag else { return false }
            continuations[id] = continuation
            return true
        }
        if !isRegistered {
            continuation.finish()
        }
        return stream
    }

    /// A publisher of the updates posted from now on, completing when the observer is cancelled
    /// or released.
    ///
    /// Values are emitted on the thread that posted the notification; add `receive(on:)` to move
    /// them. Subscribing after cancellation receives the completion at once.
    public var publisher: AnyPublisher<Update, Never> {
        subject.eraseToAnyPublisher()
    }

    /// Stops observing: removes the observers from the center, finishes every stream and completes
    /// the publisher.
    ///
    /// Safe to call more than once and from any thread; `deinit` calls it.
    public func cancel() {
        let taken: (registrations: [any NSObjectProtocol], streams: [AsyncStream<Update>.Continuation])? =
            lock.withLock {
                guard !isCancelledFlag else { return nil }
                isCancelledFlag = true
                defer {
                    registrations = []
                    continuations = [:]
                }
                return (registrations, Array(continuations.values))
            }
        guard let taken else { return }
        for registration in taken.registrations {
            center.removeObserver(registration)
        }
        for stream in taken.streams {
            stream.finish()
        }
        subject.send(completion: .finished)
    }

    private func receive(_ notification: Notification) {
        let update = Update { () throws(KeyboardEventError) in try KeyboardEvent(notification: notification) }
        let streams: [AsyncStream<Update>.Continuation]? = lock.withLock {
            guard !isCancelledFlag else { return nil }
            switch update {
            case .success(let event): latestEvent = event
            case .failure(let error): latestError = error
            }
            return Array(continuations.values)
        }
        // Delivery happens outside the lock so that a callback may read the observer or cancel it.
        guard let streams else { return }
        for stream in streams {
            stream.yield(update)
        }
        subject.send(update)
        onChange?(update)
    }

    private func removeStream(_ id: Int) {
        _ = lock.withLock { continuations.removeValue(forKey: id) }
    }
}
