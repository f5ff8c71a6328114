/// How `alert`, `confirm` and `prompt` are answered while a script runs: the script's own calls
/// (which never open a real dialog) and any dialog the page opens by itself.
public enum DialogPolicy: String, Sendable, CaseIterable {
    /// `confirm` returns `true`, `prompt` its default text; a page's dialog is accepted.
    case accept
    /// `confirm` returns `false`, `prompt` `null`; a page's dialog is dismissed.
    case dismiss
}
