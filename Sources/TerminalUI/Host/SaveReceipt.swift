/// What a successful save reports: the script as saved and the line to show.
///
/// ```swift
/// return SaveReceipt(document: saved, message: "Saved “Word count” (k3j9x2pq)")
/// ```
public struct SaveReceipt: Hashable, Sendable {
    /// The script as saved (a site script saved for the first time now has its ID).
    public var document: ScriptDocument
    /// The confirmation for the status line.
    public var message: String

    /// Creates a receipt.
    public init(document: ScriptDocument, message: String) {
        self.document = document
        self.message = message
    }
}
