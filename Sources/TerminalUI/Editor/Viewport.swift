#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import TextInput

/// Which part of the document is on screen: the first row shown and the first display column
/// shown (all lines scroll sideways together).
///
/// Scrolling is a pure function of the cursor and the visible size, in the manner of
/// tui-textarea: it moves the viewport as little as needed to show the cursor's whole cell,
/// so a wide character at the right edge scrolls the view by its full width.
struct Viewport: Hashable, Sendable {
    var top: Int
    var left: Int

    init(top: Int = 0, left: Int = 0) {
        self.top = top
        self.left = left
    }

    /// The viewport moved just enough to show the cursor.
    ///
    /// - Parameters:
    ///   - cursorRow: The cursor's row in the document.
    ///   - cursorColumn: The display column where the cursor's cell starts.
    ///   - cursorWidth: The width of the cell under the cursor (2 on a wide character).
    ///   - visibleRows: Rows of text on screen (what the output panel leaves free).
    ///   - visibleColumns: Columns of text on screen (after the line-number gutter).
    func scrolled(toShowRow cursorRow: Int, column cursorColumn: Int, width cursorWidth: Int,
                  visibleRows: Int, visibleColumns: Int) -> Viewport {
        var result = self
        let rows = max(1, visibleRows)
        // The visible rows already exclude the panel's inset, so the band is all of them.
        let top = KeyboardAvoidance.contentOffset(
            revealing: CGRect(x: 0, y: CGFloat(cursorRow), width: 1, height: 1),
            currentOffset: CGFloat(result.top), visibleHeight: CGFloat(rows), bottomInset: 0)
        result.top = Int(top.rounded())
        let columns = max(1, visibleColumns)
        let width = min(max(1, cursorWidth), columns)
        if cursorColumn < result.left {
            result.left = cursorColumn
        } else if cursorColumn + width > result.left + columns {
            result.left = cursorColumn + width - columns
        }
        result.top = max(0, result.top)
        result.left = max(0, result.left)
        return result
    }
}
