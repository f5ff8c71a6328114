/// What a key asks the editor to do, apart from typing and moving the cursor.
///
/// ``KeyBindings`` maps keys to commands; the help screen and the status line hints are drawn
/// from the same table, so a key is documented exactly where it is bound.
enum EditorCommand: Hashable, Sendable, CaseIterable {
    // The script and the page
    case run, rerun, reloadPage, save, saveAsNew, open, examples, quit, help
    // Finding
    case find, findNext, findPrevious, replace, goToLine
    // Editing
    case undo, redo, cut, copy, paste, deleteLine, deleteWordBackward, deleteWordForward
    case duplicate, moveLinesUp, moveLinesDown, indent, outdent, toggleComment
    // Selecting
    case selectAll, selectWord, selectLine
    // The result panel
    case focusPanel, scrollPanelUp, scrollPanelDown
}
