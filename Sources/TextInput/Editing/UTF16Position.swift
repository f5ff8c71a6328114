/// Where a UTF-16 offset falls in a string.
enum UTF16Position: Equatable {
    /// On a scalar boundary, at this index.
    case index(String.Index)
    /// Between the two halves of a surrogate pair; `scalar` is where that scalar starts.
    case insideSurrogatePair(scalar: String.Index)
    /// Past the end of the string.
    case pastEnd
}
