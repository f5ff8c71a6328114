import Foundation
import SystemSupport
import UserScripts

/// `run --watch`: the same run again each time the script's file is saved, in whatever editor.
///
/// The file's folder is followed (``FolderWatch``), so a save that replaces the file (a temporary
/// written and renamed over it, as many editors and `sed -i` do) counts as well as one written in
/// place, and a save's burst of events is one run. A save that leaves the file unusable (not
/// UTF-8, gone, or a userscript whose metadata block cannot be used:
/// ``UserScripts/UserScript/unusableMetadata(expectingBlock:)``) runs nothing: the run before
/// stands until a save that can be used.
///
/// ```swift
/// try await RunWatch.follow(file: script) { event in
///     show(RunWatch.lines(for: event, file: "tidy.user.js"))
///     if case .run = event { await runOnce() }
/// }
/// ```
public enum RunWatch {
    /// What the watch asks of its caller.
    public enum Event: Sendable, Equatable {
        /// Run now: the first run (`number` 1), or the file was saved and can be used.
        case run(number: Int)
        /// The file was saved but cannot be used, for `problems`: nothing runs.
        case unusable(problems: [String])
    }

    /// Calls `handle` with ``Event/run(number:)`` now, then after every save of `file`, until
    /// `isStopped` says so or the task is cancelled; a save that cannot be used is
    /// ``Event/unusable(problems:)``. Saves made while `handle` runs are taken once it returns.
    ///
    /// - Throws: ``SystemSupport/FolderWatch/Failure`` when the file's folder cannot be followed.
    public static func follow(file: URL, isStopped: @escaping @Sendable () -> Bool = { false },
                              _ handle: (Event) async -> Void) async throws(FolderWatch.Failure) {
        // Followed before the first run, so that a save made during it is not missed.
        let watch = try FolderWatch(folder: file.deletingLastPathComponent())
        defer { watch.cancel() }
        var hadBlock = (try? String(contentsOf: file, encoding: .utf8)).map { UserScript(text: $0).hasMetadataBlock } ?? false
        var runs = 1
        await handle(.run(number: runs))
        while let names = await watch.nextSettledNames(isStopped: isStopped) {
            guard names.contains(file.lastPathComponent) else { continue }
            switch version(of: file, expectingBlock: hadBlock) {
            case let .failure(unusable):
                await handle(.unusable(problems: unusable.problems))
            case let .success(hasBlock):
                hadBlock = hasBlock
                runs += 1
                await handle(.run(number: runs))
            }
        }
    }

    /// The lines that announce `event` on standard error; `file` as the user named it. The first
    /// run has none: it reads as a plain `run`.
    public static func lines(for event: Event, file: String) -> [StreamLine] {
        let safe = TerminalSafeText.escaped
        switch event {
        case .run(number: 1):
            return []
        case let .run(number):
            return [.error(""), .error("== run \(number): \(safe(file)) saved")]
        case let .unusable(problems):
            return [.error(""), .error("== \(safe(file)) saved, not run: \(safe(problems.joined(separator: "; "))); the run before stands")]
        }
    }

    private struct Unusable: Error {
        let problems: [String]
    }

    /// Whether the file as saved can run, and whether it has a metadata block.
    private static func version(of file: URL, expectingBlock: Bool) -> Result<Bool, Unusable> {
        guard let bytes = FileManager.default.contents(atPath: file.path(percentEncoded: false)) else {
            return .failure(Unusable(problems: ["the file is gone"]))
        }
        guard let text = String(data: bytes, encoding: .utf8) else { return .failure(Unusable(problems: ["the file is not UTF-8 text"])) }
        let script = UserScript(text: text)
        let problems = script.unusableMetadata(expectingBlock: expectingBlock)
        return problems.isEmpty ? .success(script.hasMetadataBlock) : .failure(Unusable(problems: problems))
    }
}
