import Foundation

extension ScriptInterpretation {
    /// The interpretation as lines of text: when the script runs, each rule and how it is read,
    /// the files it asks for, and what was noticed in its metadata block.
    ///
    /// ```text
    /// runs: automatically at document-idle (no @run-at: Tampermonkey's default)
    /// rules:
    ///   line 7: @match *://example.com/* (as written)
    ///   line 8: @include *.google.* set aside: `*.google.*` is refused: ... Did you mean `*://*.google.com/*`?
    /// requires:
    ///   line 12: https://code.jquery.com/jquery-3.7.1.min.js (sha256-...)
    /// notes:
    ///   line 4: `// Tidies tables` is not a `// @key value` line, so it is a comment (...)
    /// ```
    public var report: [String] {
        var lines = ["runs: \(runModeDescription)"]
        if !rules.isEmpty {
            lines.append("rules:")
            lines += rules.map { "  line \($0.line): \(Self.describe($0))" }
        }
        if !requires.isEmpty {
            lines.append("requires:")
            lines += requires.map { "  line \($0.line): \($0)" }
        }
        if !resources.isEmpty {
            lines.append("resources:")
            lines += resources.map { "  line \($0.line): \($0)" }
        }
        let otherNotes = notes.filter { if case .ruleSetAside = $0.kind { false } else { true } }
        if !otherNotes.isEmpty {
            lines.append("notes:")
            lines += otherNotes.map { "  \($0)" }
        }
        return lines
    }

    /// What is worth reading after an import: when the script runs, the rules read differently
    /// from the managers or set aside, lines set aside, how many comments were ignored, and the
    /// files it asks for.
    public var importSummary: [String] {
        var lines = ["runs \(runModeDescription)"] + importCautions
        let comments = notes.filter { if case .comment = $0.kind { true } else { false } }.count
        if comments > 0 {
            lines.append("\(comments) comment line\(comments == 1 ? "" : "s") in the metadata block \(comments == 1 ? "is" : "are") ignored, as the managers ignore them")
        }
        if !requires.isEmpty || !resources.isEmpty {
            lines.append("asks for files: \(requires.count) @require, \(resources.count) @resource")
        }
        return lines
    }

    /// The part of ``importSummary`` that says the script is not read as its author wrote it:
    /// rules narrowed or set aside, and lines set aside; empty when it is read as written.
    public var importCautions: [String] {
        var lines: [String] = []
        for rule in rules {
            switch rule.reading {
            case .asWritten, .broadened: continue
            case .narrowed, .setAside: lines.append("line \(rule.line): \(Self.describe(rule))")
            }
        }
        let setAside = notes.filter { note in
            if case .ruleSetAside = note.kind { return false }
            return note.isSetAside || { if case .keyWithoutAt = note.kind { true } else { false } }()
        }
        return lines + setAside.map(\.description)
    }

    /// The run mode, and where its moment comes from.
    public var runModeDescription: String {
        switch runMode {
        case .automatic:
            runAtLine == nil ? "\(runMode) (no @run-at: Tampermonkey's default)" : runMode.description
        case .onDemand:
            runMode.description
        }
    }

    /// A rule and how it is read, on one line.
    static func describe(_ rule: SiteRule) -> String {
        let patterns = rule.patterns.map(\.description).joined(separator: ", ")
        switch rule.reading {
        case .asWritten:
            if case .regularExpression(_, let hosts)? = rule.patterns.first?.form {
                return "\(rule) (as written, on \(SitePattern.describe(hosts)))"
            }
            if let everyPage = rule.everyPage { return "\(rule) (as written: \(everyPage))" }
            return patterns == rule.text || rule.patterns.isEmpty ? "\(rule) (as written)" : "\(rule) (as written: \(patterns))"
        case .narrowed(let how):
            return "\(rule) narrowed: \(how)"
        case .broadened(let how):
            return "\(rule) broadened: \(how)"
        case .setAside(let error):
            return "\(rule) set aside\(rule.kind.isExclusion ? "" : " (the script's other rules stand)"): \(error)"
        }
    }
}

extension RequiredFile: CustomStringConvertible {
    /// `name URL (hashes)`, or the value as written with why it cannot be fetched.
    public var description: String {
        let head = name.map { "\($0) " } ?? ""
        guard let url else { return "\(head)\(written) (a relative address, and the script has no @downloadURL or @updateURL to resolve it against)" }
        let hashes = integrity.isEmpty ? "" : " (\(integrity.map(\.description).joined(separator: ", ")))"
        return "\(head)\(url.absoluteString)\(hashes)"
    }
}
