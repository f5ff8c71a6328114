import Dispatch

/// The queue-specific key that marks the main queue for ``MainActorHop``.
///
/// Unchecked because the key is immutable and only ever passed to Dispatch, which is
/// thread-safe; not every platform's Dispatch declares the key type `Sendable`.
struct MainQueueMarker: @unchecked Sendable {
    let key = DispatchSpecificKey<Bool>()
}
