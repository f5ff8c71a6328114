import SystemSupport

/// The size of the terminal in cells.
struct TerminalSize: Hashable, Sendable {
    var columns: Int
    var rows: Int

    init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// What the editor assumes when the terminal will not say.
    static let fallback = TerminalSize(columns: 80, rows: 24)

    /// Asks the terminal behind `fileDescriptor` for its size (TIOCGWINSZ).
    static func current(of fileDescriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
