/// Editor preferences.
public struct EditorConfiguration: Hashable, Sendable {
    /// Spaces inserted by Tab and added by auto-indent (clamped to 1...8; 2 or 4 are usual).
    public var indentWidth: Int {
        didSet { indentWidth = min(max(indentWidth, 1), 8) }
    }
    /// Replace curly quotes, en and em dashes and non-breaking spaces with ASCII as they are
    /// typed or pasted, so code copied from web pages runs.
    public var codeMode: Bool
    /// Show the line-number gutter.
    public var showsLineNumbers: Bool
    /// How long a lone Esc byte waits for the rest of an escape sequence before it counts as
    /// the Esc key.
    public var escapeDelay: Duration
    /// Whether ``EditorApp/run()`` handles SIGINT, SIGTERM and SIGHUP itself (ending the
    /// editor and reporting the signal in ``EditorOutcome/reason``). Turn it off when the
    /// program installs its own handlers; those must then call
    /// ``RawMode/restoreAfterSignal()`` or ``EditorApp/stop(reason:)``.
    public var handlesTerminationSignals: Bool
    /// The text shown in an empty editor.
    public var placeholder: String

    /// Creates a configuration.
    public init(
        indentWidth: Int = 2,
        codeMode: Bool = true,
        showsLineNumbers: Bool = true,
        escapeDelay: Duration = .milliseconds(50),
        handlesTerminationSignals: Bool = true,
        placeholder: String = "Write JavaScript to run on this page"
    ) {
        self.indentWidth = min(max(indentWidth, 1), 8)
        self.codeMode = codeMode
        self.showsLineNumbers = showsLineNumbers
        self.escapeDelay = escapeDelay
        self.handlesTerminationSignals = handlesTerminationSignals
        self.placeholder = placeholder
    }
}
