/// Finds where a script that the engine refused to compile goes wrong, when the engine says only
/// what is wrong (both drivers report a compile error of an Execute Script body without a line or
/// column).
///
/// Each probe is an extra Execute Script call whose body starts with `return;` and then holds a
/// prefix of the code in the same place a run puts it, followed by a sentinel: two identifiers in
/// a row, which no state of the parser accepts, so that a probe never compiles and can never run
/// any of the code. A prefix that includes the offending token fails there, with the engine's
/// message for the whole code; a prefix that stops before it fails at the sentinel, with another
/// message. The sentinel is lexically valid, so an engine that reads a token ahead (JavaScriptCore
/// after an arrow function) still reports the prefix's own error first. A binary search over the
/// tokens' ends finds the shortest prefix that fails with the whole code's message: its last
/// token is where the error is. The brackets of the code are balanced (checked before it is sent),
/// so no prefix can reach outside the function it sits in.
///
/// About log2(tokens) + 3 round trips, on the error path only.
enum SyntaxErrorLocator {
    /// What one probe did.
    enum ProbeOutcome: Equatable, Sendable {
        case compiled
        case failed(String)
    }

    /// Sends one probe body.
    typealias Probe = (String) async throws(InjectionError) -> ProbeOutcome

    /// Where the error is.
    enum Location: Equatable, Sendable {
        /// At the token that starts at this UTF-16 offset of the code.
        case token(at: Int)
        /// At the end of the code: it stops in the middle of something.
        case end
    }

    static let sentinels = ["pagescript_probe_end pagescript_probe_end", "/*"]

    /// Locates the compile error of `code`.
    ///
    /// - Parameters:
    ///   - code: The code as it was sent.
    ///   - header: The function expression it follows in a run (``ScriptBody/header(for:)``).
    ///   - tokens: The UTF-16 ranges of the code's tokens, in order, none inside a template.
    ///   - engineMessage: The message the engine gave for the run's body.
    ///   - probe: Sends a probe body.
    /// - Returns: The location, or `nil` when the code compiles on its own (the failure was not in
    ///   the user's code).
    static func locate(code: String, header: String, tokens: [Range<Int>], engineMessage: String, probe: Probe) async throws(InjectionError) -> Location? {
        let units = Array(code.utf16)
        func prefix(_ end: Int) -> Substring {
            Substring(String(decoding: units[0..<end], as: UTF16.self))
        }
        var sentinel = sentinels[0]
        var sentinelOutcome = try await probe(ScriptBody.probe(header: header, prefix: "", sentinel: sentinel))
        if sentinelOutcome == .failed(engineMessage) {
            sentinel = sentinels[1]
            sentinelOutcome = try await probe(ScriptBody.probe(header: header, prefix: "", sentinel: sentinel))
        }
        // A driver that fails every body alike (a page that broke its compiler) points nowhere.
        guard case .failed = sentinelOutcome, sentinelOutcome != .failed(engineMessage) else { return nil }
        func failsAtTheError(_ end: Int) async throws(InjectionError) -> Bool {
            try await probe(ScriptBody.probe(header: header, prefix: prefix(end), sentinel: sentinel)) == .failed(engineMessage)
        }
        guard try await failsAtTheError(units.count) else {
            let closed = "return;\n[" + header + "\n" + code + "\n}; }];"
            return try await probe(closed) == .compiled ? nil : .end
        }
        guard !tokens.isEmpty else { return .end }
        var low = 0
        var high = tokens.count - 1
        if tokens[high].upperBound < units.count, !(try await failsAtTheError(tokens[high].upperBound)) {
            return .end
        }
        while low < high {
            let middle = (low + high) / 2
            if try await failsAtTheError(tokens[middle].upperBound) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return .token(at: tokens[low].lowerBound)
    }

    /// The message of a driver's `javascript error` as the engine wrote it: chromedriver adds a
    /// prefix and the browser's version.
    static func engineMessage(_ driverMessage: String) -> String {
        var message = Substring(driverMessage)
        if let sessionInfo = message.range(of: "\n  (Session info:") { message = message[..<sessionInfo.lowerBound] }
        if message.hasPrefix("javascript error: ") { message = message.dropFirst("javascript error: ".count) }
        return ScriptError.trimmed(String(message))
    }

    /// `message` as the user's text has it: without what the engine said only because PageScript
    /// put `return` before the last expression (JavaScriptCore adds "Expected a ';' following a
    /// return statement" to an error there). The engine's words stay when the user wrote a
    /// `return` between that expression's start and the error, or the error lies before it.
    static func usersMessage(_ message: String, script: PreparedScript, line: Int?, column: Int?) -> String {
        let clause = "Expected a ';' following a return statement"
        guard let found = message.range(of: clause), case let .lastExpression(start) = script.rewrite.completion else { return message }
        if let line {
            guard (line, column ?? Int.max) >= (start.line, start.column) else { return message }
            // The user's text from the expression's start to the error (the line's end without a column).
            let units = Array(script.source.utf16)
            var (end, atLine, atColumn) = (start.offset, start.line, start.column)
            while end < units.count, atLine < line || (atLine == line && column.map { atColumn < $0 } != false) {
                let unit = units[end]
                end += 1
                let isCarriageReturnOfPair = unit == 0x0D && end < units.count && units[end] == 0x0A
                if [0x0A, 0x0D, 0x2028, 0x2029].contains(unit), !isCarriageReturnOfPair {
                    (atLine, atColumn) = (atLine + 1, 1)
                } else {
                    atColumn += 1
                }
            }
            if String(decoding: units[start.offset..<end], as: UTF16.self).contains("return") { return message }
        }
        var kept = message[..<found.lowerBound]
        while let last = kept.last, last == " " || last == "." { kept = kept.dropLast() }
        return kept.isEmpty ? message : String(kept)
    }
}
