import Foundation
import TextInput

/// A one-line text field whose every edit goes through a `TextInput` field format, as the iOS
/// app's fields do through `FieldBinding`.
///
/// Each keystroke, paste or deletion becomes a replacement of a UTF-16 range, which the format
/// applies, filters or refuses (`FieldFormat.applying(_:in:to:)`). A refused edit changes
/// nothing: not the text and not the cursor. The format's `problem(with:)` is shown under the
/// field.
struct FormTextField: Sendable {
    let label: String
    private(set) var text: String
    /// The cursor as a character offset into ``text``.
    private(set) var cursor: Int
    let format: any FieldFormat
    /// Whether the user has changed the field; problems show only then (or after a submit).
    private(set) var isEdited = false

    init(label: String, text: String, format: any FieldFormat = TextFormat()) {
        self.label = label
        self.text = text
        self.format = format
        cursor = text.count
    }

    /// Why the current text is not acceptable, if it is not.
    var problem: String? { format.problem(with: text) }

    /// Handles an editing key; returns false for keys the field does not use.
    mutating func handle(_ event: KeyEvent) -> Bool {
        let count = text.count
        switch (event.key, event.modifiers) {
        case (.left, _): cursor = max(0, cursor - 1)
        case (.right, _): cursor = min(count, cursor + 1)
        case (.home, _), (.character("a"), .control): cursor = 0
        case (.end, _), (.character("e"), .control): cursor = count
        case (.backspace, _):
            if cursor > 0 { replace(cursor - 1..<cursor, with: "") }
        case (.delete, _):
            if cursor < count { replace(cursor..<cursor + 1, with: "") }
        case (.character("u"), .control):
            replace(0..<cursor, with: "")
        case (.character(let character), let modifiers) where modifiers.isDisjoint(with: [.control, .alt]):
            replace(cursor..<cursor, with: String(character))
        default:
            return false
        }
        return true
    }

    /// Inserts pasted text at the cursor, with line breaks as spaces (the field is one line).
    mutating func paste(_ pasted: String) {
        let flattened = String(pasted.map { $0.isNewline ? " " : $0 })
        replace(cursor..<cursor, with: flattened)
    }

    /// Offers the edit to the format; applies its answer, or nothing when it refuses.
    /// Returns whether the edit was accepted.
    @discardableResult
    mutating func replace(_ characters: Range<Int>, with replacement: String) -> Bool {
        let utf16Start = utf16Offset(ofCharacter: characters.lowerBound)
        let utf16End = utf16Offset(ofCharacter: characters.upperBound)
        let range = NSRange(location: utf16Start, length: utf16End - utf16Start)
        guard let updated = format.applying(replacement, in: range, to: text) else { return false }
        // A format may filter what it keeps: the cursor goes after what remains of the
        // replacement, judged by how much the text grew.
        let growth = updated.utf16.count - text.utf16.count
        let target = utf16Start + (utf16End - utf16Start) + growth
        text = updated
        cursor = characterOffset(ofUTF16: min(max(0, target), updated.utf16.count))
        isEdited = true
        return true
    }

    /// Marks the field as touched so its problem shows (after a submit attempt).
    mutating func markEdited() {
        isEdited = true
    }

    private func utf16Offset(ofCharacter offset: Int) -> Int {
        text.prefix(offset).utf16.count
    }

    private func characterOffset(ofUTF16 target: Int) -> Int {
        var units = 0
        var offset = 0
        for character in text {
            if units + character.utf16.count > target { break }
            units += character.utf16.count
            offset += 1
        }
        return offset
    }

    /// Draws "Label  [text]" on one row, scrolled so the cursor shows; returns the cursor's
    /// screen position. With `textSelected`, the text is drawn as a selection (the find bar's
    /// offered query, which typing replaces).
    func draw(into grid: inout CellGrid, x: Int, y: Int, width: Int, labelWidth: Int, focused: Bool,
              textSelected: Bool = false) -> CursorPlacement? {
        let labelStyle = focused ? CellStyle(attributes: .bold) : .plain
        grid.write(label, x: x, y: y, style: labelStyle, clip: x + labelWidth)
        let fieldX = x + labelWidth
        let fieldWidth = width - labelWidth
        guard fieldWidth > 1 else { return nil }
        let fieldStyle = CellStyle(attributes: .underline)
        grid.fill(CellRect(x: fieldX, y: y, width: fieldWidth, height: 1), style: fieldStyle)
        let textStyle = textSelected ? fieldStyle.withBackground(EditorView.selectionBackground) : fieldStyle
        let characters = Array(text)
        let glyphs = characters.map { DisplayGlyph($0, atColumn: 0, tabWidth: 1) }
        let cursorColumn = glyphs.prefix(cursor).reduce(0) { $0 + $1.width }
        let left = max(0, cursorColumn - (fieldWidth - 1))
        var column = 0
        for glyph in glyphs {
            let width = glyph.width
            defer { column += width }
            guard column >= left else { continue }
            let screenX = fieldX + column - left
            guard screenX + width <= fieldX + fieldWidth else { break }
            switch glyph {
            case .glyph(let character, _):
                grid.put(character, x: screenX, y: y, style: textStyle)
            case .escaped(let escape):
                grid.write(escape, x: screenX, y: y, style: textStyle.adding(.reverse), clip: fieldX + fieldWidth)
            case .tab:
                break
            }
        }
        return focused ? CursorPlacement(x: fieldX + cursorColumn - left, y: y) : nil
    }
}
