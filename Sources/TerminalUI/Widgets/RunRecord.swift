/// One run of the session, as the result panel keeps it: what ran, what came back, how long it
/// took, and which parts of its value the user folded or unfolded.
struct RunRecord: Hashable, Sendable {
    enum Outcome: Hashable, Sendable {
        case result(ScriptRunResult)
        /// The script could not be run (the page is gone, it timed out, ...).
        case failure(String)
        /// The user cancelled it; the text says what became of the page.
        case cancelled(String)
    }

    /// The run's number in the session.
    var number: Int
    /// The script's first line, to tell runs apart.
    var scriptPreview: String
    var outcome: Outcome
    var duration: Duration?
    /// Value paths whose folding differs from how they start.
    var toggled: Set<[Int]> = []

    init(number: Int, script: String, outcome: Outcome, duration: Duration? = nil) {
        self.number = number
        let firstLine = script.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        scriptPreview = firstLine.map { String($0.drop { $0 == " " || $0 == "\t" }) } ?? ""
        self.outcome = outcome
        self.duration = duration
    }

    /// The heading of the panel for this run.
    var title: String {
        switch outcome {
        case .result(let result): result.exception == nil ? "Result" : "Exception"
        case .failure: "Could not run"
        case .cancelled: "Cancelled"
        }
    }

    /// The run's lines before wrapping: console output, then the exception or the value.
    func lines(width: Int) -> [PanelLine] {
        let bold = CellStyle(foreground: .red, attributes: .bold)
        switch outcome {
        case .result(let result):
            var lines = ConsoleLayout.lines(of: result.console)
            if let error = result.exception {
                var location = ""
                if let line = error.line {
                    location = " (line \(line)" + (error.column.map { ", column \($0)" } ?? "") + ")"
                }
                let name = error.name.isEmpty ? "Error" : error.name
                lines.append(PanelLine([.plain("✖ ", bold), .escaped("\(name): \(error.message)", bold), .plain(location, bold)]))
                let frames = (error.stack ?? "").split(separator: "\n").map { $0.trimmingLeadingSpaces() }.filter { !$0.isEmpty }
                for frame in frames.prefix(12) where !frame.hasPrefix(name) {
                    lines.append(PanelLine(indent: 4, [.escaped(frame, CellStyle(attributes: .dim))]))
                }
            } else if let value = result.value {
                lines += ValueLayout.lines(of: value, prefix: .plain("← ", CellStyle(foreground: .cyan)), indent: 0,
                                           width: width, toggled: toggled)
            } else {
                lines.append(PanelLine([.plain("← ", CellStyle(foreground: .cyan)), .plain("undefined", CellStyle(attributes: .dim))]))
            }
            return lines
        case .failure(let reason):
            return reason.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                PanelLine(indent: index == 0 ? 0 : 2, (index == 0 ? [.plain("✖ ", bold)] : []) + [.escaped(String(line), bold)])
            }
        case .cancelled(let text):
            return [PanelLine([.plain("⊘ ", CellStyle(foreground: .yellow)), .escaped(text, CellStyle(foreground: .yellow))])]
        }
    }
}

private extension Substring {
    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }
}
