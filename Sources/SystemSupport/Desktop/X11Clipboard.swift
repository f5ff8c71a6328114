import Foundation

/// The CLIPBOARD selection of an X display, set through `xclip`.
///
/// X11 has no clipboard store: the program that set the selection answers for it while it runs.
/// Each ``set(_:mimeType:)`` starts one `xclip`, in the foreground (`-quiet`), that holds the
/// data until another program takes the selection or ``stop()`` ends it; the one before is
/// stopped then. So what was set stays on the clipboard while the session lasts, and after it
/// only where a clipboard manager has taken a copy.
///
/// ```swift
/// let clipboard = try X11Clipboard(display: ":0")
/// await clipboard.set("copied", mimeType: "text/plain")
/// clipboard.stop()
/// ```
public final class X11Clipboard: @unchecked Sendable {
    /// Why the clipboard cannot be set.
    public struct Unavailable: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    private let xclip: String
    private let display: String
    private let lock = NSLock()
    private var holder: ChildProcess?
    private var stopped = false

    /// The clipboard of `display` (`DISPLAY`'s value).
    ///
    /// - Throws: ``Unavailable`` when there is no display, or no `xclip`.
    public init(display: String?, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws(Unavailable) {
        guard let display, !display.isEmpty else { throw Unavailable(description: "there is no X display (DISPLAY is not set)") }
        guard let xclip = ExecutableLocator.find("xclip", path: path) else {
            throw Unavailable(description: "xclip is not installed (scripts/install-engines.sh installs it)")
        }
        self.xclip = xclip
        self.display = display
    }

    deinit {
        stop()
    }

    /// Puts `data` on the clipboard as `mimeType` (`text/plain`, `text/html`, …). Returns why it
    /// could not, or `nil`.
    public func set(_ data: String, mimeType: String) async -> String? {
        // The type is the page's: it reaches xclip as a target only when it is one.
        guard Self.isMIMEType(mimeType) else { return "\(mimeType) is not a MIME type" }
        let (xclip, display) = (xclip, display)
        return await BlockingWork.run { () -> String? in
            var descriptors: [Int32] = [0, 0]
            guard DesktopNotifications.makePipe(&descriptors) else { return "no pipe for xclip: \(errnoDescription(currentErrno))" }
            let started: ChildProcess
            do {
                started = try ChildProcess.launch(executable: xclip, arguments: ["-display", display, "-selection", "clipboard", "-quiet",
                                                                                "-t", mimeType],
                                                  inheritedDescriptors: [(descriptors[0], STDIN_FILENO)])
            } catch {
                close(descriptors[0])
                close(descriptors[1])
                return "\(error)"
            }
            close(descriptors[0])
            let previous = self.lock.withLock { () -> ChildProcess? in
                defer { self.holder = started }
                return self.stopped ? started : self.holder
            }
            previous?.stop(grace: 0.2)
            var bytes = Array(data.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
                if written < 0, currentErrno == EINTR { continue }
                guard written > 0 else { break }
                bytes = bytes.dropFirst(written)
            }
            close(descriptors[1])
            return bytes.isEmpty ? nil : "xclip did not take the data: \(errnoDescription(currentErrno))"
        }
    }

    /// Whether `text` is a MIME type, `type/subtype`, each a token of RFC 2045's characters.
    static func isMIMEType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`{|}~")
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.first != "-" && $0.allSatisfy(tokenCharacters.contains) }
    }

    /// Stops the `xclip` that holds the clipboard, and reaps it. Safe to call more than once; a
    /// ``set(_:mimeType:)`` after it is stopped at once.
    public func stop() {
        let holder = lock.withLock { () -> ChildProcess? in
            stopped = true
            defer { self.holder = nil }
            return self.holder
        }
        holder?.stop(grace: 0.2)
    }
}
