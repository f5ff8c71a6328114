/// The editor's keys: which key runs which command, how the key is written, and what it does.
///
/// One table serves the dispatch in the editor, the help screen (F1) and the hints in the
/// status line. Keys are chosen to work in every terminal: a terminal sends the same byte for
/// Ctrl-H and Backspace, and for Ctrl-I and Tab, so those are not bound; Ctrl-/ arrives as
/// Ctrl-_ from most terminals, and both are bound.
enum KeyBindings {
    /// A group of keys on the help screen.
    enum Section: String, CaseIterable, Sendable {
        case script = "Script and page"
        case finding = "Finding"
        case editing = "Editing"
        case selecting = "Selecting and moving"
        case panel = "Result panel"
    }

    /// One command and the keys bound to it.
    struct Binding: Sendable {
        let command: EditorCommand
        let keys: [KeyEvent]
        /// How the help screen writes the keys (`Ctrl-W, Alt-Backspace`).
        let label: String
        /// How the status line writes the main key (`^R`).
        let hint: String
        /// The status line's word for the command.
        let shortName: String
        /// What the help screen says it does.
        let summary: String
        let section: Section
    }

    static let all: [Binding] = [
        Binding(command: .run, keys: [.control("r")], label: "Ctrl-R", hint: "^R", shortName: "Run",
                summary: "Run the script on the page; while it runs, offers to cancel it", section: .script),
        Binding(command: .rerun, keys: [KeyEvent(.character("r"), .alt)], label: "Alt-R", hint: "Alt-R", shortName: "Run last",
                summary: "Run the last script run again", section: .script),
        Binding(command: .reloadPage, keys: [KeyEvent(.function(5))], label: "F5", hint: "F5", shortName: "Reload",
                summary: "Reload the page", section: .script),
        Binding(command: .save, keys: [.control("s")], label: "Ctrl-S", hint: "^S", shortName: "Save",
                summary: "Save into the script named in the title bar", section: .script),
        Binding(command: .saveAsNew, keys: [.control("n")], label: "Ctrl-N", hint: "^N", shortName: "Save as",
                summary: "Save as a new script: name, match patterns, excludes, run-at or on demand", section: .script),
        Binding(command: .open, keys: [.control("o")], label: "Ctrl-O", hint: "^O", shortName: "Open",
                summary: "Open a saved script", section: .script),
        Binding(command: .examples, keys: [.control("e")], label: "Ctrl-E", hint: "^E", shortName: "Examples",
                summary: "Load an example (Ctrl-Z brings your text back)", section: .script),
        Binding(command: .quit, keys: [.control("q")], label: "Ctrl-Q", hint: "^Q", shortName: "Quit",
                summary: "Quit (asks first when there are unsaved changes)", section: .script),
        Binding(command: .help, keys: [KeyEvent(.function(1))], label: "F1", hint: "F1", shortName: "Help",
                summary: "This help", section: .script),

        Binding(command: .find, keys: [.control("f")], label: "Ctrl-F", hint: "^F", shortName: "Find",
                summary: "Find: Enter or ↓ next, ↑ previous, Alt-C match case, Esc closes", section: .finding),
        Binding(command: .findNext, keys: [KeyEvent(.function(3))], label: "F3", hint: "F3", shortName: "Next",
                summary: "Next match", section: .finding),
        Binding(command: .findPrevious, keys: [KeyEvent(.function(3), .shift)], label: "Shift-F3", hint: "S-F3", shortName: "Previous",
                summary: "Previous match", section: .finding),
        Binding(command: .replace, keys: [.control("\\")], label: "Ctrl-\\", hint: "^\\", shortName: "Replace",
                summary: "Replace: Tab switches fields, Enter replaces one, Alt-A replaces all", section: .finding),
        Binding(command: .goToLine, keys: [.control("g")], label: "Ctrl-G", hint: "^G", shortName: "Go to",
                summary: "Go to a line (or line:column)", section: .finding),

        Binding(command: .undo, keys: [.control("z")], label: "Ctrl-Z", hint: "^Z", shortName: "Undo",
                summary: "Undo", section: .editing),
        Binding(command: .redo, keys: [.control("y")], label: "Ctrl-Y", hint: "^Y", shortName: "Redo",
                summary: "Redo", section: .editing),
        Binding(command: .cut, keys: [.control("x")], label: "Ctrl-X", hint: "^X", shortName: "Cut",
                summary: "Cut the selection, or the line", section: .editing),
        Binding(command: .copy, keys: [.control("c")], label: "Ctrl-C", hint: "^C", shortName: "Copy",
                summary: "Copy the selection, or the line (also to the terminal's clipboard)", section: .editing),
        Binding(command: .paste, keys: [.control("v")], label: "Ctrl-V", hint: "^V", shortName: "Paste",
                summary: "Paste what was cut or copied in the editor", section: .editing),
        Binding(command: .deleteLine, keys: [.control("k")], label: "Ctrl-K", hint: "^K", shortName: "Delete line",
                summary: "Delete the line (or the selected lines); Ctrl-V puts it back", section: .editing),
        Binding(command: .deleteWordBackward, keys: [.control("w"), KeyEvent(.backspace, .alt), KeyEvent(.backspace, .control)],
                label: "Ctrl-W, Alt-Backspace", hint: "^W", shortName: "Delete word",
                summary: "Delete the word before the cursor", section: .editing),
        Binding(command: .deleteWordForward, keys: [KeyEvent(.character("d"), .alt), KeyEvent(.delete, .control), KeyEvent(.delete, .alt)],
                label: "Alt-D, Ctrl-Delete", hint: "Alt-D", shortName: "Delete word",
                summary: "Delete the word after the cursor", section: .editing),
        Binding(command: .duplicate, keys: [.control("d")], label: "Ctrl-D", hint: "^D", shortName: "Duplicate",
                summary: "Duplicate the line (or the selected lines)", section: .editing),
        Binding(command: .moveLinesUp, keys: [KeyEvent(.up, .alt)], label: "Alt-↑", hint: "Alt-↑", shortName: "Move up",
                summary: "Move the line (or the selected lines) up", section: .editing),
        Binding(command: .moveLinesDown, keys: [KeyEvent(.down, .alt)], label: "Alt-↓", hint: "Alt-↓", shortName: "Move down",
                summary: "Move the line (or the selected lines) down", section: .editing),
        Binding(command: .indent, keys: [KeyEvent(.tab)], label: "Tab", hint: "Tab", shortName: "Indent",
                summary: "Indent (the selected lines)", section: .editing),
        Binding(command: .outdent, keys: [KeyEvent(.backTab)], label: "Shift-Tab", hint: "S-Tab", shortName: "Dedent",
                summary: "Dedent the line (or the selected lines)", section: .editing),
        Binding(command: .toggleComment, keys: [.control("_"), .control("/"), KeyEvent(.character("/"), .alt)],
                label: "Ctrl-/, Alt-/", hint: "^/", shortName: "Comment",
                summary: "Comment or uncomment the line (or the selected lines)", section: .editing),

        Binding(command: .selectAll, keys: [.control("a")], label: "Ctrl-A", hint: "^A", shortName: "All",
                summary: "Select everything", section: .selecting),
        Binding(command: .selectWord, keys: [KeyEvent(.character("w"), .alt)], label: "Alt-W", hint: "Alt-W", shortName: "Word",
                summary: "Select the word at the cursor; again: the next word too", section: .selecting),
        Binding(command: .selectLine, keys: [.control("l")], label: "Ctrl-L", hint: "^L", shortName: "Line",
                summary: "Select the line; again: the next line too", section: .selecting),

        Binding(command: .focusPanel, keys: [KeyEvent(.function(6))], label: "F6", hint: "F6", shortName: "Panel",
                summary: "Into the result panel and back: ↑↓ move, Enter folds, ←→ earlier and later runs", section: .panel),
        Binding(command: .scrollPanelUp, keys: [KeyEvent(.up, .control)], label: "Ctrl-↑", hint: "^↑", shortName: "Scroll",
                summary: "Scroll the result panel up", section: .panel),
        Binding(command: .scrollPanelDown, keys: [KeyEvent(.down, .control)], label: "Ctrl-↓", hint: "^↓", shortName: "Scroll",
                summary: "Scroll the result panel down", section: .panel),
    ]

    /// Keys the help screen lists that are not commands of the table.
    static let movement: [(label: String, summary: String)] = [
        ("Shift + a move", "Select while moving"),
        ("Ctrl-←→, Alt-B/F", "Move by word"),
        ("Home, End", "Start of the line's text (again: column 1), end of the line"),
        ("Ctrl-Home, Ctrl-End", "Start, end of the script"),
        ("PgUp, PgDn", "A screen up, down"),
        ("Esc", "Close the panel, the find bar or a dialog; drop the selection"),
    ]

    private static let byKey: [KeyEvent: EditorCommand] = {
        var table: [KeyEvent: EditorCommand] = [:]
        for binding in all {
            for key in binding.keys { table[key] = binding.command }
        }
        return table
    }()

    /// The command bound to `key`, if any.
    static func command(for key: KeyEvent) -> EditorCommand? {
        byKey[key]
    }

    /// The binding of `command`.
    static func binding(for command: EditorCommand) -> Binding {
        // Every command has a row; the table is checked by a test.
        all.first { $0.command == command } ?? all[0]
    }

    /// The status line hint for `command`.
    static func hint(_ command: EditorCommand, label: String? = nil) -> StatusBar.Hint {
        let binding = binding(for: command)
        return StatusBar.Hint(key: binding.hint, label: label ?? binding.shortName)
    }
}

extension KeyEvent {
    /// How people write the key: `Ctrl-K`, `Alt-X`, `Shift-F3`, `F12`.
    var displayName: String {
        var name = ""
        if modifiers.contains(.control) { name += "Ctrl-" }
        if modifiers.contains(.alt) { name += "Alt-" }
        if modifiers.contains(.shift) { name += "Shift-" }
        switch key {
        case .character(let character): name += character.isLetter ? character.uppercased() : String(character)
        case .enter: name += "Enter"
        case .tab: name += "Tab"
        case .backTab: name += "Shift-Tab"
        case .backspace: name += "Backspace"
        case .delete: name += "Delete"
        case .insert: name += "Insert"
        case .escape: name += "Esc"
        case .up: name += "↑"
        case .down: name += "↓"
        case .left: name += "←"
        case .right: name += "→"
        case .home: name += "Home"
        case .end: name += "End"
        case .pageUp: name += "PgUp"
        case .pageDown: name += "PgDn"
        case .function(let number): name += "F\(number)"
        }
        return name
    }
}
