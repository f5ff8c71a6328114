import TerminalUI

/// The terminal escaping every command uses for text it did not write itself.
enum TerminalSafeTextBridge {
    static func escaped(_ text: String) -> String { TerminalSafeText.escaped(text) }
}
