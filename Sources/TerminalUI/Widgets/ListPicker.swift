import SystemSupport

/// A list to choose one item from, with type-to-filter; used for the examples menu and the
/// scripts list. Each item has a title and a detail line (an example's description, where a
/// script runs), both searched by the filter; the detail of the highlighted item is shown whole
/// under the list.
struct ListPicker: Hashable, Sendable {
    enum Action: Hashable, Sendable {
        case none
        /// The user chose the item at this index of ``items``.
        case choose(Int)
        case cancel
    }

    struct Item: Hashable, Sendable {
        var title: String
        var detail: String
    }

    let title: String
    let items: [Item]
    private(set) var filter = ""
    /// Indexes into ``items`` of the items matching the filter.
    private(set) var matches: [Int]
    /// Position in ``matches`` of the highlighted item.
    private(set) var selected = 0

    init(title: String, items: [Item]) {
        self.title = title
        self.items = items
        matches = Array(items.indices)
    }

    var selectedItem: Int? { matches.indices.contains(selected) ? matches[selected] : nil }

    /// The rows the picker would like: the items, the filter line, the detail and the border.
    var wantedHeight: Int { items.count + 6 }

    mutating func handle(_ event: KeyEvent, pageSize: Int) -> Action {
        let page = max(1, pageSize)
        switch (event.key, event.modifiers) {
        case (.escape, _):
            return .cancel
        case (.enter, _):
            return selectedItem.map { .choose($0) } ?? .none
        case (.up, _):
            move(to: selected - 1)
        case (.down, _):
            move(to: selected + 1)
        case (.pageUp, _):
            move(to: selected - page)
        case (.pageDown, _):
            move(to: selected + page)
        case (.home, _):
            move(to: 0)
        case (.end, _):
            move(to: matches.count - 1)
        case (.backspace, _):
            if !filter.isEmpty {
                filter.removeLast()
                refilter()
            }
        case (.character(let character), let modifiers) where modifiers.isDisjoint(with: [.control, .alt]):
            filter.append(character)
            refilter()
        default:
            break
        }
        return .none
    }

    private mutating func move(to index: Int) {
        selected = min(max(0, index), max(0, matches.count - 1))
    }

    private mutating func refilter() {
        let needle = filter.lowercased()
        matches = items.indices.filter { index in
            needle.isEmpty || items[index].title.lowercased().contains(needle) || items[index].detail.lowercased().contains(needle)
        }
        selected = 0
    }

    func draw(into grid: inout CellGrid, frame: CellRect) {
        guard frame.height >= 3, frame.width >= 6 else { return }
        Box.draw(into: &grid, frame: frame, title: title)
        let inner = frame.insetBy(1)
        var listTop = inner.y
        let prompt = filter.isEmpty ? "Type to filter" : "Filter: " + TerminalSafeText.escaped(filter)
        grid.write(prompt, x: inner.x + 1, y: inner.y, style: CellStyle(foreground: .cyan, attributes: filter.isEmpty ? .dim : []),
                   clip: inner.maxX)
        listTop += 1
        let selectedDetail = selectedItem.map { items[$0].detail } ?? ""
        let detailLines = selectedDetail.isEmpty || inner.height < 8
            ? [] : Array(DisplayText.wrapped(TerminalSafeText.escaped(selectedDetail), toColumns: max(1, inner.width - 2)).prefix(3))
        let listBottom = inner.maxY - (detailLines.isEmpty ? 0 : detailLines.count + 1)
        let rows = listBottom - listTop
        guard rows > 0 else { return }
        if matches.isEmpty {
            let empty = items.isEmpty ? "Nothing here yet." : "No match."
            grid.write(empty, x: inner.x + 1, y: listTop, style: CellStyle(attributes: .dim), clip: inner.maxX)
            return
        }
        let titleWidth = min(max(12, items.map { GlyphWidth.columns(of: TerminalSafeText.escaped($0.title)) }.max() ?? 0), inner.width / 2)
        let top = selected < rows ? 0 : selected - rows + 1
        for row in 0..<rows {
            let position = top + row
            guard position < matches.count else { break }
            let item = items[matches[position]]
            let isSelected = position == selected
            let style = isSelected ? CellStyle(attributes: .reverse) : .plain
            let y = listTop + row
            if isSelected {
                grid.fill(CellRect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
            }
            let name = DisplayText.truncated(TerminalSafeText.escaped(item.title), toColumns: titleWidth)
            grid.write(name, x: inner.x + 1, y: y, style: style, clip: inner.maxX)
            let detailX = inner.x + 1 + titleWidth + 2
            if !item.detail.isEmpty, detailX < inner.maxX - 4 {
                let detail = DisplayText.truncated(TerminalSafeText.escaped(item.detail), toColumns: inner.maxX - detailX - 1)
                grid.write(detail, x: detailX, y: y, style: isSelected ? style : CellStyle(attributes: .dim), clip: inner.maxX)
            }
        }
        if !detailLines.isEmpty {
            let y = listBottom
            for x in inner.x..<inner.maxX {
                grid.put("─", x: x, y: y, style: CellStyle(foreground: .cyan, attributes: .dim))
            }
            for (offset, line) in detailLines.enumerated() {
                grid.write(line, x: inner.x + 1, y: y + 1 + offset, style: CellStyle(foreground: .cyan), clip: inner.maxX)
            }
        }
    }
}
