import TerminalText

/// A list to choose one item from, with type-to-filter; used for the examples menu and the
/// scripts list.
struct ListPicker: Hashable, Sendable {
    enum Action: Hashable, Sendable {
        case none
        /// The user chose the item at this index of ``items``.
        case choose(Int)
        case cancel
    }

    let title: String
    let items: [String]
    private(set) var filter = ""
    /// Indexes into ``items`` of the items matching the filter.
    private(set) var matches: [Int]
    /// Position in ``matches`` of the highlighted item.
    private(set) var selected = 0

    init(title: String, items: [String]) {
        self.title = title
        self.items = items
        matches = Array(items.indices)
    }

    var selectedItem: Int? { matches.indices.contains(selected) ? matches[selected] : nil }

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
        matches = items.indices.filter { needle.isEmpty || items[$0].lowercased().contains(needle) }
        selected = 0
    }

    func draw(into grid: inout CellGrid, frame: CellRect) {
        guard frame.height >= 3, frame.width >= 6 else { return }
        Box.draw(into: &grid, frame: frame, title: title)
        let inner = frame.insetBy(1)
        var listTop = inner.y
        if !filter.isEmpty || items.count > inner.height {
            let prompt = "Filter: " + TerminalSafeText.escaped(filter)
            grid.write(prompt, x: inner.x + 1, y: inner.y, style: CellStyle(foreground: .cyan), clip: inner.maxX)
            listTop += 1
        }
        let rows = inner.maxY - listTop
        guard rows > 0 else { return }
        if matches.isEmpty {
            let empty = items.isEmpty ? "Nothing here yet." : "No match."
            grid.write(empty, x: inner.x + 1, y: listTop, style: CellStyle(attributes: .dim), clip: inner.maxX)
            return
        }
        let top = selected < rows ? 0 : selected - rows + 1
        for row in 0..<rows {
            let position = top + row
            guard position < matches.count else { break }
            let isSelected = position == selected
            let style = isSelected ? CellStyle(attributes: .reverse) : .plain
            let y = listTop + row
            if isSelected {
                grid.fill(CellRect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
            }
            let name = DisplayText.truncated(TerminalSafeText.escaped(items[matches[position]]), toColumns: inner.width - 2)
            grid.write(name, x: inner.x + 1, y: y, style: style, clip: inner.maxX)
        }
    }
}
