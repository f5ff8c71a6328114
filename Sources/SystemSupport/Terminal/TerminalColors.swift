import Foundation

/// Whether PageScript colours what it writes: the one place every coloured output asks.
///
/// Colours go when the output is not a terminal (a program or a file reads it), and when
/// `NO_COLOR` is set to anything but the empty string, as <https://no-color.org> asks. Styles
/// that are not colours (reverse video, bold, underline) stay: they are how a full-screen
/// program shows a selection or a status line at all.
///
/// ```swift
/// TerminalColors.allowed(by: ["NO_COLOR": "1"])   // false
/// TerminalColors.allowed(by: ["NO_COLOR": ""])    // true: an empty NO_COLOR asks for nothing
/// ```
public enum TerminalColors {
    /// Whether text written to `descriptor` may be coloured.
    ///
    /// - Parameters:
    ///   - descriptor: Where the text goes.
    ///   - environment: The environment that may hold `NO_COLOR`; this process's by default.
    public static func allowed(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(descriptor) == 1 && allowed(by: environment)
    }

    /// Whether `environment` lets output be coloured: `NO_COLOR` unset or empty.
    public static func allowed(by environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}
