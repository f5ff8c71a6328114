import CSystemSupport
import Foundation

/// A process PageScript started, in a process group of its own, so that stopping it also stops
/// everything it started in turn (a driver's browser, the browser's helper processes).
///
/// Every live child is listed in ``ChildProcessRegistry/shared`` until it has been reaped, so that
/// signal handlers and error paths can stop whatever is still running.
///
/// ```swift
/// let driver = try ChildProcess.launch(executable: "/usr/bin/chromedriver", arguments: ["--port=9515"])
/// defer { driver.stop() }
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// The process ID, which is also the ID of the process group it leads.
    public let processID: pid_t
    /// The executable's path, for messages.
    public let executablePath: String

    /// The registry that lists it while it runs.
    private let registry: ChildProcessRegistry
    private let lock = NSLock()
    private var exitStatus: Int32?

    private init(processID: pid_t, executablePath: String, registry: ChildProcessRegistry) {
        self.processID = processID
        self.executablePath = executablePath
        self.registry = registry
    }

    /// Starts `executable` with `arguments`, in a new process group.
    ///
    /// - Parameters:
    ///   - executable: An absolute path to the program.
    ///   - arguments: The arguments, not including the program name.
    ///   - environment: The full environment of the child; `nil` inherits this process's.
    ///   - outputPath: A file that receives the child's standard output and error (appended);
    ///     `nil` sends both to `/dev/null`.
    ///   - inheritedDescriptors: Descriptors of this process to give the child, as
    ///     `(parentDescriptor, childDescriptor)` pairs (for example a pipe end as descriptor 3).
    /// - Throws: ``ChildProcessError/launchFailed(executable:reason:)`` when the process cannot start,
    ///   or when the command is ending (``ChildProcessRegistry/stopAll(grace:)`` has run).
    public static func launch(
        executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        outputPath: String? = nil,
        inheritedDescriptors: [(Int32, Int32)] = []
    ) throws(ChildProcessError) -> ChildProcess {
        try launch(executable: executable, arguments: arguments, environment: environment, outputPath: outputPath,
                   inheritedDescriptors: inheritedDescriptors, registry: .shared)
    }

    /// ``launch(executable:arguments:environment:outputPath:inheritedDescriptors:)`` into `registry`.
    static func launch(
        executable: String,
        arguments: [String],
        environment: [String: String]?,
        outputPath: String?,
        inheritedDescriptors: [(Int32, Int32)],
        registry: ChildProcessRegistry
    ) throws(ChildProcessError) -> ChildProcess {
        var fileActions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&fileActions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&fileActions)
            posix_spawnattr_destroy(&attributes)
        }

        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        let sink = outputPath ?? "/dev/null"
        posix_spawn_file_actions_addopen(&fileActions, 1, sink, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
        for (parent, child) in inheritedDescriptors {
            posix_spawn_file_actions_adddup2(&fileActions, parent, child)
        }
        // Nothing else of this process reaches the child. A descriptor opened without
        // close-on-exec (SwiftNIO's sockets) would otherwise live on in every child started while
        // it was open: closing a connection here would not close it, and its peer would wait.
        _ = pagescript_spawn_close_from(&fileActions, max(3, (inheritedDescriptors.map(\.1).max() ?? 2) + 1))

        // Own process group: one kill(-pgid) reaches the driver and the browser it starts.
        // Default signal dispositions: this process ignores SIGINT and SIGPIPE while it waits for
        // signals, and children must not inherit that.
        var flags = Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
        flags |= Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, flags)
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH] {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        flags = 0

        let argv = [executable] + arguments
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        return try registry.admit(executable: executable) { () throws(ChildProcessError) in
            var pid = pid_t()
            let status = withCStringArray(argv) { cArgv in
                withCStringArray(env) { cEnv in
                    posix_spawn(&pid, executable, &fileActions, &attributes, cArgv, cEnv)
                }
            }
            guard status == 0 else {
                throw .launchFailed(executable: executable, reason: errnoDescription(status))
            }
            return ChildProcess(processID: pid, executablePath: executable, registry: registry)
        }
    }

    /// Whether the process has not exited yet (reaping it if it has).
    public var isRunning: Bool {
        pollExit() == nil
    }

    /// The exit status once the process has ended, reaping it; `nil` while it runs.
    @discardableResult
    public func pollExit() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(processID, &status, WNOHANG)
        if result == processID || (result == -1 && errno == ECHILD) {
            exitStatus = status
            registry.unregister(self)
            return status
        }
        return nil
    }

    /// Stops the process, its group and every process below it: SIGTERM, then SIGKILL after
    /// `grace` seconds for whatever is left, then reaps the leader.
    ///
    /// Safe to call more than once and from any thread. Returns once the leader has been reaped.
    public func stop(grace: TimeInterval = 1.0) {
        let tree = ProcessTree.descendants(of: processID)
        if pollExit() != nil {
            // The leader is gone; helpers it left behind may not be.
            killpg(processID, SIGKILL)
            tree.forEach { kill($0, SIGKILL) }
            registry.reapStrays(adding: tree)
            return
        }
        killpg(processID, SIGTERM)
        tree.forEach { kill($0, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, pollExit() == nil {
            usleep(2_000)
        }
        // Whatever the leader started meanwhile is in the tree now; read it again before killing.
        let lateTree = ProcessTree.descendants(of: processID)
        killpg(processID, SIGKILL)
        (tree + lateTree).forEach { kill($0, SIGKILL) }
        while pollExit() == nil {
            usleep(2_000)
        }
        // The helpers killed with it become this process's children once their parents are gone.
        registry.reapStrays(adding: tree + lateTree)
    }

    /// Sends SIGKILL to the whole group and every process below it, without waiting.
    public func killGroupImmediately() {
        let tree = ProcessTree.descendants(of: processID)
        killpg(processID, SIGKILL)
        tree.forEach { kill($0, SIGKILL) }
    }
}

private func withCStringArray<Result>(
    _ strings: [String],
    _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { buffer in
        body(buffer.baseAddress!)
    }
}

/// Why a child process could not be started or did not become ready.
public enum ChildProcessError: Error, Equatable, CustomStringConvertible {
    /// `posix_spawn` refused to start the program.
    case launchFailed(executable: String, reason: String)
    /// The program exited before it was ready.
    case exitedEarly(executable: String, status: Int32, log: String)
    /// The program did not become ready in time.
    case notReady(executable: String, seconds: Double)

    public var description: String {
        switch self {
        case let .launchFailed(executable, reason):
            "could not start \(executable): \(reason)"
        case let .exitedEarly(executable, status, log):
            "\(executable) exited (status \(status)) before it was ready" + (log.isEmpty ? "" : ": \(log)")
        case let .notReady(executable, seconds):
            "\(executable) was not ready after \(seconds) s"
        }
    }
}
