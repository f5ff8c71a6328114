extension TextEdit {
    /// A text after an edit, with the caret that the edit leaves behind.
    ///
    /// An editor shows `text` and puts its insertion point at `caretLocation`; both count
    /// UTF-16 code units, like the edit's range.
    public struct Result: Hashable, Sendable {
        /// The whole text after the edit.
        public var text: String

        /// The caret after the edit, on a character boundary of ``text``, in UTF-16 code units.
        public var caretLocation: Int

        /// Creates a result from a text and a caret in it.
        ///
        /// - Parameters:
        ///   - text: The whole text after the edit.
        ///   - caretLocation: The caret, in UTF-16 code units of `text`.
        public init(text: String, caretLocation: Int) {
            self.text = text
            self.caretLocation = caretLocation
        }
    }
}
