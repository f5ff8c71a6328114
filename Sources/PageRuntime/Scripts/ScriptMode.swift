/// How a script's text is read before it runs.
public enum ScriptMode: Sendable, Equatable {
    /// Typed or pasted code (`-e`, `-f`, standard input, the editor): like a browser's console,
    /// the last expression statement's value is the result, top-level `await` works, and a
    /// top-level `return` is an error, reported where it stands.
    case console
    /// A userscript from the library: the same completion value and top-level `await`, and a
    /// top-level `return` ends the script, as userscript managers allow.
    case userscript
}
