extension ScriptLibrary {
    /// The library's script that `script` is a copy of, by the managers' identity: the same
    /// `@name` and the same `@namespace` (both absent counts as the same). `nil` when no script,
    /// or more than one, has them.
    ///
    /// Tampermonkey and Violentmonkey treat a script with a known name and namespace as a new
    /// version of the installed one. PageScript does the same for text run outside the library
    /// (`run -f FILE`, the editor): it runs as that script, with its values and fetched files.
    ///
    /// ```swift
    /// let text = try String(contentsOfFile: "tidy.user.js", encoding: .utf8)
    /// let installed = try library.script(sameAs: UserScript(text: text))?.id
    /// ```
    public func script(sameAs script: UserScript) throws(LibraryError) -> StoredScript? {
        let same = try scripts().filter { $0.script.name == script.name && $0.script.namespace == script.namespace }
        return same.count == 1 ? same[0] : nil
    }
}
