/// Whether a new version of a script, saved by an editor the user runs, can take the place of the
/// version before it.
///
/// Reading a script never fails (``UserScript``), so a save in the middle of an edit still reads
/// as a script: one whose `// ==UserScript==` block is not closed yet has no rules at all and
/// would silently stop running where it ran. A watch (`browse --watch`, `run --watch`) asks this
/// instead, and keeps the version before running while the new one has a problem here.
extension UserScript {
    /// Why this version's metadata block cannot be used, each as "line N: reason"; empty when it
    /// can.
    ///
    /// - Parameter expectingBlock: Whether the version before had a metadata block: then a text
    ///   without one is a block that was lost. Plain JavaScript never expects one.
    ///
    /// The block is unusable when it is not closed, when it is gone though it was expected, and
    /// when it has a line the library would refuse to save (a site rule that cannot be read
    /// safely, an unknown `@run-at`: ``ScriptNote/refusesSave``).
    public func unusableMetadata(expectingBlock: Bool) -> [String] {
        var problems = interpretation.notes.filter { note in
            if case .blockNotClosed = note.kind { return true }
            return note.refusesSave
        }.map(\.description)
        if problems.isEmpty, expectingBlock, !hasMetadataBlock {
            problems.append("the `// ==UserScript==` block is gone, so the script would have no rules and would run nowhere")
        }
        return problems
    }
}
