/// A place in JavaScript source, counted the way JavaScript engines count.
///
/// Lines and columns start at 1. Columns count UTF-16 code units, as engines report them in
/// error messages and stack traces: an emoji outside the Basic Multilingual Plane is two columns
/// wide, an accented letter written as one code point is one. A line ends at a line feed, a
/// carriage return, a carriage return followed by a line feed (one line break), LINE SEPARATOR
/// (U+2028) or PARAGRAPH SEPARATOR (U+2029), which are the line terminators of ECMAScript.
///
/// ```swift
/// let position = SourcePosition(line: 2, column: 5, offset: 12)
/// print(position)  // line 2, column 5
/// ```
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in UTF-16 code units, from 1.
    public var column: Int
    /// The number of UTF-16 code units before this place in the text, from 0.
    public var offset: Int

    /// Creates a position from its line, column and offset.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column in UTF-16 code units, from 1.
    ///   - offset: The number of UTF-16 code units before this place, from 0.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Orders positions of the same text by their offset.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        lhs.offset < rhs.offset
    }

    /// `line L, column C`, as the terminal shows it.
    public var description: String {
        "line \(line), column \(column)"
    }
}
