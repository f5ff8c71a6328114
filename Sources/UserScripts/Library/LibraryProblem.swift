/// A file in the library that could not be read as a script. The file is left untouched.
public struct LibraryProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// Why it could not be read.
    public let reason: String
    /// The 1-based line the problem is on, when it is about one line.
    public let line: Int?

    /// Describes a problem with the file at `path`.
    public init(path: String, reason: String, line: Int? = nil) {
        self.path = path
        self.reason = reason
        self.line = line
    }

    /// `path:line: reason`, like a compiler message.
    public var description: String {
        line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)"
    }
}
