import SystemSupport

/// What a signal handler needs to put the terminal back, kept in memory allocated once.
///
/// A signal handler must not allocate, lock or touch Swift objects; it may read plain memory
/// and call async-signal-safe functions. So ``RawMode`` copies the saved settings and the
/// exit sequence's address into this record, and ``restore()`` uses nothing else. `isArmed`
/// makes the restore happen once: set when raw mode starts, cleared by whichever restore
/// runs first.
struct EmergencyRestore {
    var input: Int32
    var output: Int32
    var settings: termios
    var sequence: UnsafePointer<UInt8>?
    var sequenceLength: Int
    var isArmed: Int32
    /// Counts raw-mode sessions, so a `RawMode` can tell whether the record still describes
    /// its own session when it restores.
    var generation: Int

    /// The one record; allocated on first use (before any handler can run) and never freed,
    /// so a late signal can never see freed memory.
    nonisolated(unsafe) static let record: UnsafeMutablePointer<EmergencyRestore> = {
        let pointer = UnsafeMutablePointer<EmergencyRestore>.allocate(capacity: 1)
        pointer.initialize(to: EmergencyRestore(input: -1, output: -1, settings: termios(), sequence: nil,
                                                sequenceLength: 0, isArmed: 0, generation: 0))
        return pointer
    }()

    nonisolated(unsafe) private static var exitHandlerRegistered = false

    /// The async-signal-tolerant restore.
    static func restore() {
        let pointer = record
        guard pointer.pointee.isArmed != 0 else { return }
        pointer.pointee.isArmed = 0
        if let sequence = pointer.pointee.sequence, pointer.pointee.sequenceLength > 0 {
            _ = write(pointer.pointee.output, sequence, pointer.pointee.sequenceLength)
        }
        _ = tcsetattr(pointer.pointee.input, TCSANOW, &pointer.pointee.settings)
    }

    /// Makes `exit()` from anywhere restore the terminal too. Called from `RawMode.enable`,
    /// which runs on one thread at a time in practice; a second registration is harmless.
    static func registerExitHandler() {
        guard !exitHandlerRegistered else { return }
        exitHandlerRegistered = true
        atexit {
            EmergencyRestore.restore()
        }
    }
}
