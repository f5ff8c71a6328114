import Foundation
import SystemSupport

/// The terminal in raw mode, for as long as this value is in use.
///
/// ``enable(input:output:exitSequence:)`` saves the terminal's settings once and switches
/// to raw mode: no echo, no line buffering, no signals from Ctrl-C/Ctrl-Z/Ctrl-\, no flow
/// control on Ctrl-S/Ctrl-Q, no CR/NL translation, 8-bit characters, and reads that return as
/// soon as one byte is there (`VMIN` 1, `VTIME` 0, set by name).
///
/// The saved settings come back through ``restore()``, which is idempotent, and which also
/// runs when the value is released, when the process exits through `exit()`, and from
/// ``restoreAfterSignal()``, the async-signal-tolerant variant a signal handler may call: it
/// uses only memory prepared in advance, `write(2)` and `tcsetattr(3)`.
///
/// ```swift
/// let rawMode = try RawMode.enable(input: STDIN_FILENO)
/// defer { rawMode.restore() }
/// // read keys…
/// ```
public final class RawMode: @unchecked Sendable {
    /// The descriptor whose settings were changed.
    public let fileDescriptor: Int32
    /// The settings from before raw mode.
    public let savedSettings: termios
    private let outputDescriptor: Int32
    private let exitSequence: StaticString
    private let generation: Int
    // Guards `isRestored`; @unchecked Sendable is sound because it is the only mutable state.
    private let lock = NSLock()
    private var isRestored = false

    private init(fileDescriptor: Int32, savedSettings: termios, outputDescriptor: Int32, exitSequence: StaticString,
                 generation: Int) {
        self.fileDescriptor = fileDescriptor
        self.savedSettings = savedSettings
        self.outputDescriptor = outputDescriptor
        self.exitSequence = exitSequence
        self.generation = generation
    }

    deinit {
        restore()
    }

    /// Saves the terminal's settings and switches it to raw mode.
    ///
    /// - Parameters:
    ///   - input: A descriptor of the terminal (the one keys are read from).
    ///   - output: Where `exitSequence` is written on restore; `input` when `nil`.
    ///   - exitSequence: Bytes written just before the settings are restored, such as the
    ///     sequence that leaves the alternate screen. Static, so a signal handler can write it.
    /// - Throws: ``TerminalError/notATerminal(fileDescriptor:)`` when `input` is not a terminal,
    ///   ``TerminalError/rawModeAlreadyActive`` while another `RawMode` is active, or
    ///   ``TerminalError/systemCall(name:errno:)``.
    public static func enable(input: Int32, output: Int32? = nil, exitSequence: StaticString = "") throws(TerminalError) -> RawMode {
        guard isatty(input) == 1 else { throw .notATerminal(fileDescriptor: input) }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else {
            throw .systemCall(name: "tcgetattr", errno: currentErrno)
        }
        let record = EmergencyRestore.record
        guard record.pointee.isArmed == 0 else { throw .rawModeAlreadyActive }
        let outputDescriptor = output ?? input
        let generation = record.pointee.generation + 1
        // Armed before the switch: a signal arriving just after it still finds the settings.
        record.pointee = EmergencyRestore(
            input: input, output: outputDescriptor, settings: original,
            sequence: exitSequence.utf8Start, sequenceLength: exitSequence.utf8CodeUnitCount, isArmed: 1,
            generation: generation
        )
        var raw = rawSettings(from: original)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else {
            let code = currentErrno
            record.pointee.isArmed = 0
            throw .systemCall(name: "tcsetattr", errno: code)
        }
        EmergencyRestore.registerExitHandler()
        return RawMode(fileDescriptor: input, savedSettings: original, outputDescriptor: outputDescriptor,
                       exitSequence: exitSequence, generation: generation)
    }

    /// The raw-mode settings derived from `settings` (what `cfmakeraw` does, spelled out).
    public static func rawSettings(from settings: termios) -> termios {
        var raw = settings
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        // VMIN and VTIME by name: their indexes differ between platforms (16 is VMIN on
        // Darwin but VEOL2 on Linux).
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        return raw
    }

    /// Writes the exit sequence and puts the saved settings back. Only the first call does
    /// anything, so it is safe from `defer`, from error paths and after a signal restore.
    public func restore() {
        lock.lock()
        let alreadyRestored = isRestored
        isRestored = true
        lock.unlock()
        guard !alreadyRestored else { return }
        let record = EmergencyRestore.record
        if record.pointee.generation == generation {
            // Disarmed already means a signal handler restored this session: do not write the
            // exit sequence twice.
            guard record.pointee.isArmed != 0 else { return }
            record.pointee.isArmed = 0
        }
        if exitSequence.utf8CodeUnitCount > 0 {
            _ = write(outputDescriptor, exitSequence.utf8Start, exitSequence.utf8CodeUnitCount)
        }
        var settings = savedSettings
        _ = tcsetattr(fileDescriptor, TCSANOW, &settings)
    }

    /// Restores the terminal of the active `RawMode` from a signal handler.
    ///
    /// It touches only memory prepared by ``enable(input:output:exitSequence:)`` and calls
    /// only `write(2)` and `tcsetattr(3)`, and it does nothing when no raw mode is active or it
    /// already ran. A program with its own SIGINT/SIGTERM handlers calls it there before
    /// exiting:
    ///
    /// ```swift
    /// signal(SIGTERM) { number in
    ///     RawMode.restoreAfterSignal()
    ///     _exit(128 + number)
    /// }
    /// ```
    public static func restoreAfterSignal() {
        EmergencyRestore.restore()
    }
}
