/// A declared file that has not been fetched (or no longer matches its cache entry): the script
/// is not runnable until `pagescript scripts update` fetches it.
public struct MissingFile: Sendable, Hashable, CustomStringConvertible {
    /// The line that declares it.
    public let dependency: ScriptDependency
    /// Why the last fetch failed, when one was tried.
    public let lastFailure: String?

    /// `line 4: @require https://... is missing (... answered HTTP 404)`.
    public var description: String {
        let line = dependency.line.map { "line \($0): " } ?? ""
        let reason = lastFailure.map { " (\($0))" } ?? " (not fetched yet)"
        return "\(line)\(dependency) is missing\(reason)"
    }
}
