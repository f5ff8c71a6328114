extension ScriptLibrary {
    /// Copies a built-in example into the library as a new script of the user's own.
    ///
    /// ```swift
    /// let example = try ExampleCatalog.builtIn().example(named: "word-count")
    /// let script = try library.newFromExample(example)
    /// ```
    @discardableResult
    public func newFromExample(_ example: ExampleScript) throws(LibraryError) -> StoredScript {
        try create(example.script)
    }
}
