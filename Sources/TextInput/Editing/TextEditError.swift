import Foundation

/// Why a ``TextEdit`` could not be applied to a text.
///
/// Every case carries enough to explain the refusal to a person reading a log, and the
/// error's ``description`` says it in words. An edit that throws leaves the text untouched:
/// edits are validated completely before anything is replaced.
public enum TextEditError: Error, Hashable, Sendable {
    /// The range is not a range at all: its location is `NSNotFound` or negative, or its
    /// length is negative.
    case invalidRange(location: Int, length: Int)

    /// The range reaches past the end of a text that is `utf16Length` code units long.
    case outOfBounds(location: Int, length: Int, utf16Length: Int)

    /// A bound of the range falls between the two halves of a surrogate pair.
    case splitsSurrogatePair(utf16Offset: Int)

    /// A bound of the range falls inside a user-perceived character (grapheme cluster).
    case splitsGraphemeCluster(utf16Offset: Int)
}

extension TextEditError: CustomStringConvertible {
    /// A sentence saying why the edit was refused.
    public var description: String {
        switch self {
        case let .invalidRange(location, length):
            "The range {\(location), \(length)} is not a valid range."
        case let .outOfBounds(location, length, utf16Length):
            "The range {\(location), \(length)} reaches past the end of a text of \(utf16Length) UTF-16 code units."
        case let .splitsSurrogatePair(offset):
            "UTF-16 offset \(offset) falls between the two halves of a surrogate pair."
        case let .splitsGraphemeCluster(offset):
            "UTF-16 offset \(offset) falls inside a character (grapheme cluster)."
        }
    }
}
