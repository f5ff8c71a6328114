extension MatchPattern {
    /// Whether editing on could make `partial` a valid pattern: what a pattern field refuses as it
    /// is typed or pasted. Only what no valid pattern ever holds is refused: a space or a control
    /// character, a fragment (`#`), `\` or `"`, `<` or `>` outside `<all_urls>`, and a complete
    /// scheme scripts never run on (`ftp://`). A mistake the form can
    /// explain, often with a fix (`www.google.*`, a missing path, `user@` in the host), is let
    /// through and reported by ``problem(with:)``, which suggests the pattern meant.
    ///
    /// ```swift
    /// MatchPattern.canBecomeValid("www.google.*")  // true: the form suggests *://*.google.com/*
    /// MatchPattern.canBecomeValid("ftp://")        // false
    /// ```
    public static func canBecomeValid(_ partial: String) -> Bool {
        if partial.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace }) { return false }
        if partial.unicodeScalars.contains(where: { "#\\\"".unicodeScalars.contains($0) }) { return false }
        if partial.contains("<") || partial.contains(">") { return "<all_urls>".hasPrefix(partial) }
        guard let separator = partial.range(of: "://") else { return true }
        return ["*", "http", "https", "file"].contains(partial[..<separator.lowerBound].lowercased())
    }

    /// Why `pattern` is not a valid match pattern, as a form shows it; `nil` when it is.
    public static func problem(with pattern: String) -> String? {
        do {
            _ = try MatchPattern(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
