import SystemSupport
import UserScripts

extension ScriptImportResult {
    /// What `scripts import` prints, page and script text escaped for the terminal.
    ///
    /// Standard output has one line per script: `imported`, `updated`, `unchanged` or
    /// `refused`, its ID and its file. Standard error has what belongs to no one script (what
    /// the source was, what the library lacks) and, briefly, one line for each script that is
    /// not read as its author wrote it, came with notes from a backup, or lacks files it needs;
    /// the whole of what PageScript concluded about each script (when it runs, each rule read
    /// differently, each file fetched) only when `verbose` asks, as `scripts show` tells it.
    ///
    /// ```swift
    /// result.lines(source: "scripts", verbose: false)
    /// // out: imported	k3m9x2ab	tidy.user.js
    /// // err:   tidy.user.js: 1 metadata line set aside or read narrower; -v or `pagescript scripts show k3m9x2ab` says more
    /// ```
    ///
    /// - Parameters:
    ///   - source: The name of what was imported (a file, a folder, a backup), before the notes
    ///     that belong to it.
    ///   - verbose: Whether each script's details are written.
    public func lines(source: String, verbose: Bool) -> [StreamLine] {
        let safe = TerminalSafeText.escaped
        var lines = notes.map { StreamLine.error("\(safe(source)): \(safe($0))") }
        let filesByScript = Dictionary(fetched.map { ($0.script.id, $0.files) }) { first, _ in first }
        for entry in entries {
            let file = safe(entry.report.source.isFileURL ? entry.report.source.lastPathComponent : entry.report.source.absoluteString)
            var details: [String] = []
            var id: ScriptID?
            switch entry.report.outcome {
            case let .imported(script):
                id = script.id
                lines.append(.output("imported\t\(script.id)\t\(file)"))
            case let .updated(script, previous, version):
                id = script.id
                lines.append(.output("updated\t\(script.id)\t\(file)"))
                details += ImportReport.updateNotes(script, previousFile: previous, previousVersion: version)
            case let .alreadyInLibrary(unchanged):
                id = unchanged
                lines.append(.output("unchanged\t\(unchanged)\t\(file)"))
            case let .refused(reason):
                lines.append(.output("refused\t-\t\(file): \(safe(reason))"))
            }
            let interpretation = entry.report.interpretation
            if verbose {
                details += (interpretation?.importSummary ?? []) + entry.notes
                lines += details.map { .error("  \(file): \(safe($0))") }
            } else if let id, let summary = Self.summary(cautions: interpretation?.importCautions.count ?? 0, notes: entry.notes.count,
                                                          files: filesByScript[id]) {
                lines.append(.error("  \(file): \(summary); -v or `pagescript scripts show \(id)` says more"))
            }
        }
        lines += problems.map { .error("pagescript: \(safe($0.reason))") }
        if verbose {
            for script in fetched {
                lines.append(.error("  \(script.script.id) \(safe(script.script.name)):"))
                for entry in script.files.entries {
                    if case .alreadyCached = entry.outcome { continue }
                    lines.append(.error("    \(safe(entry.description))"))
                }
                if !script.files.isComplete {
                    lines.append(.error("    the script does not run until these files are fetched: `pagescript scripts update` tries again"))
                }
            }
        }
        return lines
    }

    /// The one line said of a script by default, `nil` when there is nothing to say.
    private static func summary(cautions: Int, notes: Int, files: DependencyReport?) -> String? {
        var parts: [String] = []
        if cautions > 0 {
            parts.append("\(cautions) metadata line\(cautions == 1 ? "" : "s") set aside or read narrower")
        }
        if notes > 0 {
            parts.append("\(notes) note\(notes == 1 ? "" : "s") on what the backup held")
        }
        if let files, !files.isComplete {
            let missing = files.entries.filter { if case .failed = $0.outcome { true } else { false } }.count
            parts.append("\(missing) file\(missing == 1 ? "" : "s") not fetched: it does not run until `pagescript scripts update` fetches \(missing == 1 ? "it" : "them")")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
