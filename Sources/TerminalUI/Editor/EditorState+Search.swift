import Foundation

extension EditorState {
    // MARK: The find bar

    /// Ctrl-F and Ctrl-\: opens the bar with the selected text (on one line) or the last search,
    /// offered: typing replaces it, Enter searches it again. Ctrl-F in the open bar offers its
    /// query again, as a browser's find bar selects its text.
    mutating func openFindBar(replacing: Bool) {
        if case .find(var bar) = prompt {
            if replacing, bar.replacement == nil {
                let wasOffered = bar.isQueryOffered
                bar = FindBar(query: bar.query.text, replacing: true, matchCase: bar.matchCase, origin: bar.origin)
                bar.isQueryOffered = wasOffered
            }
            if !replacing {
                bar.isQueryOffered = !bar.query.text.isEmpty
            }
            bar.focus = replacing ? .replacement : .query
            prompt = .find(bar)
            return
        }
        let range = selection.range
        let selected = range.start.row == range.end.row && !range.isEmpty ? buffer.text(in: range) : nil
        let bar = FindBar(query: selected ?? lastSearch, replacing: replacing, matchCase: searchIndex.matchCase, origin: range.start)
        prompt = .find(bar)
        updateSearch(movingFrom: range.start)
    }

    /// Keys for the bar; `nil` for keys it leaves to the editor (Ctrl-S, Ctrl-R, ...).
    mutating func handlePromptKey(_ event: KeyEvent) -> [EditorEffect]? {
        switch prompt {
        case .find(var bar):
            return handleFindKey(event, bar: &bar)
        case .goToLine(var field):
            switch event.key {
            case .escape:
                prompt = nil
            case .enter:
                goToLine(field.text)
            default:
                guard field.handle(event) else { return nil }
                prompt = .goToLine(field)
            }
            return []
        case nil:
            return nil
        }
    }

    private mutating func handleFindKey(_ event: KeyEvent, bar: inout FindBar) -> [EditorEffect]? {
        switch (event.key, event.modifiers) {
        case (.escape, _):
            prompt = nil
        case (.enter, _) where bar.focus == .replacement:
            replaceCurrent()
        case (.enter, _), (.down, []):
            findAgain(forward: true)
        case (.up, []):
            findAgain(forward: false)
        case (.tab, _), (.backTab, _):
            guard bar.replacement != nil else { return [] }
            bar.focus = bar.focus == .query ? .replacement : .query
            prompt = .find(bar)
        case (.character("c"), .alt):
            bar.matchCase.toggle()
            prompt = .find(bar)
            searchIndex.setMatchCase(bar.matchCase)
            updateSearch(movingFrom: selection.range.start)
        case (.character("a"), .alt):
            guard bar.replacement != nil else { return nil }
            replaceEveryMatch()
        default:
            let before = bar.query.text
            guard bar.edit(event) else { return nil }
            prompt = .find(bar)
            if bar.query.text != before {
                updateSearch(movingFrom: bar.origin)
            }
        }
        return []
    }

    /// After the query changed: the first match from `origin` on is selected.
    mutating func updateSearch(movingFrom origin: TextPosition) {
        guard case .find(var bar) = prompt else { return }
        let query = bar.query.text
        lastSearch = query
        let needle = searchIndex.fold(query)
        guard !needle.isEmpty else {
            bar.matchCount = 0
            bar.currentOrdinal = 0
            prompt = .find(bar)
            return
        }
        bar.matchCount = searchIndex.count(of: needle, lines: buffer.lines, limit: FindBar.countLimit)
        bar.countedRevision = history.revision
        if let match = searchIndex.next(needle, from: origin, forward: true, lines: buffer.lines) {
            select(match)
            bar.currentOrdinal = ordinal(of: match, needle: needle)
        } else {
            selection = Selection(caret: origin)
            bar.currentOrdinal = 0
        }
        prompt = .find(bar)
    }

    /// F3, Shift-F3, and Enter, ↓ and ↑ in the bar: the next or previous match, round the end.
    mutating func findAgain(forward: Bool) {
        var bar: FindBar
        if case .find(let open) = prompt {
            bar = open
        } else {
            guard !lastSearch.isEmpty else {
                openFindBar(replacing: false)
                return
            }
            bar = FindBar(query: lastSearch, replacing: false, matchCase: searchIndex.matchCase, origin: cursor)
        }
        let needle = searchIndex.fold(bar.query.text)
        guard !needle.isEmpty else { return }
        let range = selection.range
        let from = forward ? (range.isEmpty ? range.start : TextPosition(row: range.start.row, column: range.start.column + 1)) : range.start
        guard let match = searchIndex.next(needle, from: from, forward: forward, lines: buffer.lines) else {
            message = .info("No match for “\(bar.query.text)”.")
            return
        }
        let wrapped = forward ? match.start < range.start : match.start > range.start
        if wrapped {
            message = .info(forward ? "Searched past the end: back at the top." : "Searched past the top: back at the end.")
        }
        let isCounted = bar.countedRevision == history.revision
        let wasSelected = isCounted && bar.currentOrdinal > 0 && range.start.row == range.end.row
            && searchIndex.matches(of: needle, inRow: range.start.row, lines: buffer.lines).contains(range.start.column..<range.end.column)
        select(match)
        bar.origin = match.start
        if case .find = prompt {
            if !isCounted {
                bar.matchCount = searchIndex.count(of: needle, lines: buffer.lines, limit: FindBar.countLimit)
            }
            // From a selected match the next one is its neighbour, so its number follows without
            // counting the matches above it again (a pass over the script).
            if wasSelected, bar.matchCount < FindBar.countLimit {
                if match.start != range.start {
                    bar.currentOrdinal = wrapped ? (forward ? 1 : bar.matchCount) : bar.currentOrdinal + (forward ? 1 : -1)
                }
            } else {
                bar.currentOrdinal = ordinal(of: match, needle: needle)
            }
            bar.countedRevision = history.revision
            prompt = .find(bar)
        }
    }

    /// Which match `match` is, counting from the top (1-based).
    private mutating func ordinal(of match: TextRange, needle: [UInt8]) -> Int {
        let count = searchIndex.count(of: needle, lines: buffer.lines, limit: FindBar.countLimit, inRowsBefore: match.start.row)
        if count >= FindBar.countLimit { return 0 }
        let onRow = searchIndex.matches(of: needle, inRow: match.start.row, lines: buffer.lines)
        return count + onRow.filter { $0.lowerBound <= match.start.column }.count
    }

    private mutating func select(_ match: TextRange) {
        selection = Selection(anchor: match.start, head: match.end)
        preferredColumn = nil
        history.seal()
    }

    /// Enter in the replace field: the selected match becomes the replacement; then the next one
    /// is selected.
    private mutating func replaceCurrent() {
        guard case .find(let bar) = prompt, let replacement = bar.replacement?.text else { return }
        let needle = searchIndex.fold(bar.query.text)
        guard !needle.isEmpty else { return }
        let range = selection.range
        let isMatch = range.start.row == range.end.row
            && searchIndex.matches(of: needle, inRow: range.start.row, lines: buffer.lines)
                .contains(range.start.column..<range.end.column)
        if isMatch {
            replace(range, with: replacement, kind: .other)
            selection = Selection(caret: range.start.advanced(over: replacement))
            updateSearch(movingFrom: cursor)
        } else {
            findAgain(forward: true)
        }
    }

    /// Alt-A in the replace bar: every match, as one undo step.
    private mutating func replaceEveryMatch() {
        guard case .find(let bar) = prompt, let replacement = bar.replacement?.text else { return }
        let needle = searchIndex.fold(bar.query.text)
        guard !needle.isEmpty else { return }
        var found: [TextRange] = []
        for row in buffer.lines.indices {
            for match in searchIndex.matches(of: needle, inRow: row, lines: buffer.lines) {
                found.append(TextRange(TextPosition(row: row, column: match.lowerBound), TextPosition(row: row, column: match.upperBound)))
            }
        }
        guard !found.isEmpty else {
            message = .info("No match for “\(bar.query.text)”.")
            return
        }
        let caret = cursor
        replaceAll(found.reversed().map { ($0, replacement) }, selectionAfter: { _ in Selection(caret: caret) })
        selection = clampedSelection(selection)
        updateSearch(movingFrom: cursor)
        message = .info("Replaced \(found.count) \(found.count == 1 ? "match" : "matches"). Ctrl-Z undoes them all.")
    }

    /// The matches of the open find bar's query in the rows on screen, for highlighting.
    mutating func visibleMatches(rows: Range<Int>) -> [Int: [Range<Int>]] {
        guard case .find(let bar) = prompt else { return [:] }
        let needle = searchIndex.fold(bar.query.text)
        guard !needle.isEmpty else { return [:] }
        var result: [Int: [Range<Int>]] = [:]
        for row in rows where row < buffer.lines.count {
            let found = searchIndex.matches(of: needle, inRow: row, lines: buffer.lines)
            if !found.isEmpty { result[row] = found }
        }
        return result
    }

    // MARK: Go to line

    /// Enter in the go-to-line bar: `42` or `42:7`.
    private mutating func goToLine(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let line = parts.first.flatMap({ Int($0) }), line > 0, parts.count <= 2 else {
            message = .error("Type a line number, or line:column.")
            return
        }
        let column = parts.count == 2 ? Int(parts[1]) : nil
        if parts.count == 2, column == nil {
            message = .error("Type a line number, or line:column.")
            return
        }
        prompt = nil
        let row = min(line, buffer.lines.count) - 1
        let length = buffer.lines[row].count
        let wanted = max(0, (column ?? 1) - 1)
        moveCursor(to: TextPosition(row: row, column: min(wanted, length)), extending: false)
        if line > buffer.lines.count {
            message = .info("The script has \(buffer.lines.count) lines: went to the last.")
        } else if wanted > length {
            message = .info("Line \(line) has \(length) \(length == 1 ? "character" : "characters"): went to its end.")
        }
    }
}
