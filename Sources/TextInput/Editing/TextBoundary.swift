/// The unit of text that an edit's range may not cut through.
///
/// `NSRange` counts UTF-16 code units, so a range can end inside a surrogate pair (half of an
/// emoji) or between the scalars of one user-perceived character (an `e` and its combining
/// accent, the people of a family emoji). ``TextEdit`` refuses such ranges rather than guess.
///
/// Grapheme clusters are the default because that is what a user sees as one character.
/// Some keyboards delete a single vowel sign from a Devanagari or Thai syllable with one
/// backspace: a layer that must honour those edits uses ``unicodeScalar``.
public enum TextBoundary: Hashable, Sendable {
    /// Ranges start and end between user-perceived characters (extended grapheme clusters).
    case graphemeCluster

    /// Ranges start and end between Unicode scalars; surrogate pairs are still never split.
    case unicodeScalar
}
