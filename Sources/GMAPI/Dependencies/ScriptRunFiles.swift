/// What a run needs beyond the script: its `@require` files in order, its resources, and what
/// is missing.
public struct ScriptRunFiles: Sendable, Hashable {
    /// The `@require` files, in the order they run, before the script, in its scope.
    public let requires: [FetchedFile]
    /// The `@resource` files, in declaration order.
    public let resources: [FetchedFile]
    /// The declared files that are not in the cache. When any are, the script must not run:
    /// report them (each names its line, URL and last failure) and suggest `scripts update`.
    public let missing: [MissingFile]

    /// Whether every declared file is there.
    public var isRunnable: Bool { missing.isEmpty }

    /// The resource `GM_getResourceText(name)` / `GM_getResourceURL(name)` read.
    public func resource(named name: String) -> FetchedFile? {
        resources.first { $0.dependency.resourceName == name }
    }
}
