import Foundation
import UserScripts

/// Why a file given by hand for a script's `@require` or `@resource` was not taken.
public enum SupplyFailure: Error, Sendable, CustomStringConvertible {
    /// The script declares no file at this URL; `declared` lists those it does.
    case notDeclared(url: String, declared: [String])
    /// The URL cannot be read (so neither can its integrity hash), or the file is not the one the
    /// author pinned with one.
    case refused(DependencyFailure)
    /// The cache or the script's record could not be written.
    case cache(DependencyError)

    public var description: String {
        switch self {
        case let .notDeclared(url, declared):
            let list = declared.isEmpty ? "it declares no @require or @resource files" : "it declares " + declared.joined(separator: ", ")
            return "the script declares no @require or @resource at \(url): \(list)"
        case let .refused(failure): return failure.description
        case let .cache(error): return error.description
        }
    }
}

extension DependencyCache {
    /// Takes `bytes` (the file at `path`, which the user fetched another way) as the file the
    /// script declares at `url` (written as in the script, with or without its `#` integrity
    /// fragment), for a host PageScript cannot reach: checked against the author's integrity
    /// hashes as a download is, stored, and recorded as coming from `path`. The script then runs
    /// with it, and `scripts update` leaves it until asked to fetch again.
    ///
    /// ```swift
    /// let supplied = try cache.supply(bytes, forURL: "https://cdn.example/lib.js", of: stored.script, id: stored.id, fromFile: "/tmp/lib.js")
    /// ```
    ///
    /// - Returns: The declarations the file now stands for (a URL may be both a `@require` and a
    ///   `@resource`).
    @discardableResult
    public func supply(_ bytes: [UInt8], forURL url: String, of script: UserScript, id: ScriptID,
                       fromFile path: String) throws(SupplyFailure) -> [ScriptDependency] {
        let declared = ScriptDependency.declared(in: script)
        let matching = declared.filter { dependency in
            dependency.declaredURL == url || dependency.declaredURL.split(separator: "#", maxSplits: 1).first.map(String.init) == url
        }
        guard !matching.isEmpty else { throw .notDeclared(url: url, declared: declared.map(\.declaredURL)) }
        let base = ScriptDependency.baseURL(of: script)
        for dependency in matching {
            do throws(DependencyFailure) {
                let (resolved, integrity) = try dependency.resolved(base: base)
                try IntegrityCheck.verify(bytes, against: integrity, url: resolved.description)
            } catch {
                throw .refused(error)
            }
        }
        do throws(DependencyError) {
            try keep(bytes, as: matching.map(\.declaredURL), for: id, contentType: nil, from: URL(fileURLWithPath: path).absoluteString)
        } catch {
            throw .cache(error)
        }
        return matching
    }
}
