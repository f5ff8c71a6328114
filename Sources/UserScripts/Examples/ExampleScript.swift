import Foundation

/// One of PageScript's built-in example scripts.
///
/// Examples have no `@match` and no `@run-at`: they run on demand, on whatever page is open. Each
/// ends with an expression whose value is the script's result (`({words: 412})`), and those that
/// change the page return a short summary (`({outlined: 12})`).
public struct ExampleScript: Hashable, Sendable, Identifiable {
    /// The example's short name, its file name without `.user.js`: `word-count`.
    public let id: String
    /// The example's file.
    public let file: URL
    /// The script.
    public let script: UserScript

    /// The example's display name (`@name`).
    public var name: String { script.name }
    /// What it does (`@description`).
    public var summary: String? { script.scriptDescription }
}
