import Foundation
import SystemSupport

/// A pseudo-terminal pair for tests: the slave side is the terminal under test, the master
/// side plays the user (writes keys) and the screen (reads output).
public final class PseudoTerminal: @unchecked Sendable {
    /// The side that plays the user and the screen.
    public let master: Int32
    /// The terminal under test.
    public let slave: Int32
    // Guards `output`, filled by the draining thread; hence @unchecked Sendable.
    private let lock = NSLock()
    private var output: [UInt8] = []
    private var draining = false
    private var hungUp = false
    private let drained = DispatchGroup()

    /// The pseudo-terminal could not be opened.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens a pair whose terminal is `columns` x `rows`.
    public init(columns: Int = 80, rows: Int = 24) throws {
        let master = PseudoTerminal.openMaster()
        guard master >= 0 else { throw Failure(description: "posix_openpt failed: \(errnoDescription(currentErrno))") }
        guard PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0 else {
            close(master)
            throw Failure(description: "grantpt/unlockpt failed")
        }
        guard let name = PseudoTerminal.slaveName(master) else {
            close(master)
            throw Failure(description: "ptsname failed")
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "opening \(name) failed")
        }
        // Not inherited by programs the test starts: a child holding the master open would keep
        // the terminal alive after hangUp(), and one holding the slave would keep it open.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        self.master = master
        self.slave = slave
        resize(columns: columns, rows: rows)
    }

    deinit {
        stopDraining()
        close(slave)
        if !hungUp { close(master) }
    }

    /// Closes the master side, as a closed terminal window or a dropped ssh connection does:
    /// from then on the terminal reads end of file and writes fail with EIO.
    public func hangUp() {
        stopDraining()
        lock.lock()
        defer { lock.unlock() }
        guard !hungUp else { return }
        hungUp = true
        close(master)
    }

    /// Changes the terminal's size, as a window resize would (the program gets SIGWINCH).
    public func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `bytes` into the terminal.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, bytes.count - offset) }
            if written > 0 { offset += written } else if currentErrno != EINTR && currentErrno != EAGAIN { return }
        }
    }

    /// Types `text` into the terminal.
    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Reads the master side on a thread, so the program under test never blocks on a full
    /// pseudo-terminal buffer.
    public func startDraining() {
        lock.lock()
        draining = true
        lock.unlock()
        drained.enter()
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while isDraining {
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 50) > 0 else { continue }
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    lock.lock()
                    output.append(contentsOf: buffer[0..<count])
                    lock.unlock()
                } else if count == 0 || currentErrno != EINTR {
                    break
                }
            }
            drained.leave()
        }.start()
    }

    private var isDraining: Bool {
        lock.lock()
        defer { lock.unlock() }
        return draining
    }

    /// Stops reading the master side; returns once the reading thread has ended.
    public func stopDraining() {
        lock.lock()
        let wasDraining = draining
        draining = false
        lock.unlock()
        if wasDraining { drained.wait() }
    }

    /// Everything read so far, as text.
    public var screenText: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Forgets what was read so far.
    public func clearOutput() {
        lock.lock()
        output.removeAll()
        lock.unlock()
    }

    /// Waits until the output contains `text`; false on timeout.
    public func waitForOutput(containing text: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if screenText.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return screenText.contains(text)
    }

    /// The terminal's current settings.
    public func settings() -> termios {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings
    }

    // posix_openpt, grantpt, unlockpt and ptsname_r are hidden from Swift's Glibc module by
    // feature-test macros, so on Linux they are looked up at run time.
    #if canImport(Glibc) || canImport(Musl)
    private typealias DescriptorFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static func openMaster() -> Int32 {
        function("posix_openpt", as: DescriptorFunction.self)?(O_RDWR | O_NOCTTY) ?? -1
    }

    private static func grant(_ master: Int32) -> Int32 {
        function("grantpt", as: DescriptorFunction.self)?(master) ?? -1
    }

    private static func unlock(_ master: Int32) -> Int32 {
        function("unlockpt", as: DescriptorFunction.self)?(master) ?? -1
    }

    private static func slaveName(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard function("ptsname_r", as: NameFunction.self)?(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #else
    private static func openMaster() -> Int32 { posix_openpt(O_RDWR | O_NOCTTY) }
    private static func grant(_ master: Int32) -> Int32 { grantpt(master) }
    private static func unlock(_ master: Int32) -> Int32 { unlockpt(master) }
    private static func slaveName(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard ptsname_r(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
}

extension termios {
    /// The control characters by name, for comparisons.
    public func controlCharacter(_ index: Int32) -> UInt8 {
        withUnsafeBytes(of: c_cc) { $0[Int(index)] }
    }
}
