/// What sits in front of the editor and takes the keys.
enum Overlay: Sendable {
    case none
    /// "Unsaved changes: quit?" in the status line.
    case confirmQuit
    case examples(ListPicker, [ScriptExample])
    case scripts(ListPicker)
    case form(ScriptForm)
}
