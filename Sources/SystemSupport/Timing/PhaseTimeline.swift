import Dispatch
import Foundation

/// Where the time of one piece of work went: consecutive named phases and how long each took.
///
/// Each ``end(_:)`` closes the phase under way at that moment under the given name, so the
/// phases cover the whole time from the timeline's creation without gaps or overlaps, and
/// their sum is the total. Code deep in a call chain records through ``current``, a task-local
/// value, so that nothing in between has to pass the timeline along; with no timeline set,
/// recording costs a task-local read.
///
/// ```swift
/// let timeline = PhaseTimeline()
/// try await PhaseTimeline.$current.withValue(timeline) {
///     try await startDriver()          // calls PhaseTimeline.current?.end("driver")
/// }
/// timeline.phases  // [Phase(name: "driver", seconds: 0.21)]
/// ```
public final class PhaseTimeline: @unchecked Sendable {
    /// One phase: its name and its length in seconds.
    public struct Phase: Sendable, Equatable {
        /// What happened in the phase (`driver`, `navigation`).
        public let name: String
        /// How long it took, in seconds.
        public let seconds: Double

        /// A phase of `seconds` named `name`.
        public init(name: String, seconds: Double) {
            self.name = name
            self.seconds = seconds
        }
    }

    /// The timeline the current task records into, if any.
    @TaskLocal public static var current: PhaseTimeline?

    private let lock = NSLock()
    private var recorded: [Phase] = []
    private var phaseStart: UInt64

    /// A timeline whose first phase starts now.
    public init() {
        phaseStart = DispatchTime.now().uptimeNanoseconds
    }

    /// Ends the phase under way now, naming it `name`; the next phase starts at once.
    public func end(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            recorded.append(Phase(name: name, seconds: Double(now - phaseStart) / 1e9))
            phaseStart = now
        }
    }

    /// The phases ended so far, in order.
    public var phases: [Phase] {
        lock.withLock { recorded }
    }

    /// The sum of the phases ended so far, in seconds.
    public var total: Double {
        phases.reduce(0) { $0 + $1.seconds }
    }
}
