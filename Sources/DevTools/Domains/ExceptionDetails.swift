import SystemSupport

/// What the page reported about an exception: `Runtime.ExceptionDetails`.
///
/// Line and column are zero-based, as the protocol gives them.
///
/// ```swift
/// do { _ = try await page.evaluate("null.x") }
/// catch let DevToolsError.exceptionThrown(_, details) { print(details.description) }
/// ```
public struct ExceptionDetails: Sendable, Equatable, CustomStringConvertible {
    /// The protocol's summary, e.g. `Uncaught` or `Uncaught (in promise)`.
    public let text: String
    /// The exception's own description: for an `Error`, its stack (`TypeError: … at …`); for
    /// another thrown value, its string form.
    public let exceptionDescription: String?
    /// The thrown value itself when it is a primitive or was returned by value.
    public let exceptionValue: JSONValue?
    /// The zero-based line of the throw in the evaluated script.
    public let lineNumber: Int
    /// The zero-based column of the throw.
    public let columnNumber: Int
    /// The script's URL, when it has one.
    public let url: String?

    /// Reads `Runtime.ExceptionDetails`.
    public init(_ details: JSONValue) {
        text = details["text"]?.stringValue ?? ""
        let exception = details["exception"]
        exceptionDescription = exception?["description"]?.stringValue
        exceptionValue = exception?["value"]
        lineNumber = details["lineNumber"]?.intValue ?? 0
        columnNumber = details["columnNumber"]?.intValue ?? 0
        url = details["url"]?.stringValue
    }

    public var description: String {
        let what = exceptionDescription ?? exceptionValue?.serialized ?? text
        return "\(what) (line \(lineNumber + 1), column \(columnNumber + 1))"
    }
}
