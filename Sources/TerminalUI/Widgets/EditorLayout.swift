#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import TextInput

/// Where everything goes on a screen of a given size.
///
/// Row 0 is the title bar, the last row the status line, and the rows between belong to the
/// editor; the find bar, when open, takes the rows just above the status line, and the result
/// panel, when open, rises over the editor's lower part. Recomputed from scratch for every
/// frame, so a resize lays everything out again.
struct EditorLayout: Hashable, Sendable {
    /// Below this the editor shows only a "too small" notice.
    static let minimumColumns = 20
    static let minimumRows = 5

    let size: TerminalSize
    let titleBar: CellRect
    let statusBar: CellRect
    let editor: CellRect
    let gutterWidth: Int
    let textArea: CellRect
    let panel: CellRect?
    /// The find or go-to-line bar.
    let bar: CellRect?
    /// Rows of text visible above the panel.
    let visibleTextRows: Int

    init(size: TerminalSize, lineCount: Int, showsLineNumbers: Bool, panel: ResultPanel?, barRows: Int = 0) {
        self.size = size
        titleBar = CellRect(x: 0, y: 0, width: size.columns, height: 1)
        statusBar = CellRect(x: 0, y: max(0, size.rows - 1), width: size.columns, height: 1)
        let barHeight = size.rows - 2 > barRows + 2 ? barRows : 0
        bar = barHeight > 0 ? CellRect(x: 0, y: size.rows - 1 - barHeight, width: size.columns, height: barHeight) : nil
        editor = CellRect(x: 0, y: 1, width: size.columns, height: size.rows - 2 - barHeight)
        let digits = String(max(1, lineCount)).count
        gutterWidth = showsLineNumbers ? max(3, digits) + 1 : 0
        textArea = CellRect(x: editor.x + gutterWidth, y: editor.y, width: editor.width - gutterWidth, height: editor.height)
        if let panel, editor.height >= 3 {
            let wanted = panel.contentHeight(width: editor.width) + 1
            let limit = max(3, editor.height / 2)
            let height = min(max(3, wanted), limit, editor.height - 1)
            let frame = CellRect(x: editor.x, y: editor.maxY - height, width: editor.width, height: height)
            self.panel = frame
        } else {
            self.panel = nil
        }
        let inset = PanelAvoidance.bottomInset(panelFrame: self.panel, viewFrame: editor, safeAreaBottom: 0)
        visibleTextRows = PanelAvoidance.visibleRows(viewFrame: editor, bottomInset: inset)
    }

    var isTooSmall: Bool {
        size.columns < Self.minimumColumns || size.rows < Self.minimumRows
    }

    /// A box centred over the editor for pickers and forms.
    func dialog(width wanted: Int, height wantedHeight: Int) -> CellRect {
        let width = min(wanted, editor.width - 2)
        let height = min(wantedHeight, editor.height)
        return CellRect(x: editor.x + (editor.width - width) / 2, y: editor.y + (editor.height - height) / 2,
                        width: width, height: height)
    }
}

/// How much of the editor the output panel covers, computed the way a text view is inset for
/// an on-screen keyboard: the panel plays the keyboard.
///
/// The rules and the shape are those of `TextInput`'s `KeyboardAvoidance.bottomInset(
/// keyboardFrame:viewFrame:safeAreaBottom:)`, in cells instead of points, so that function can
/// replace this one: only the overlap of the panel with the view counts, a panel that does
/// not reach the view's bottom edge (the floating-keyboard case) covers nothing to inset
/// against, the safe area is not counted twice, and the result is never negative.
enum PanelAvoidance {
    /// The rows at the bottom of `viewFrame` hidden by `panelFrame`, less `safeAreaBottom`.
    static func bottomInset(panelFrame: CellRect?, viewFrame: CellRect, safeAreaBottom: Int) -> Int {
        guard let panelFrame else { return 0 }
        // The panel plays the keyboard: the same geometry as the iOS text view, in cells.
        let inset = KeyboardAvoidance.bottomInset(
            keyboardFrame: panelFrame.cgRect, viewFrame: viewFrame.cgRect, safeAreaBottom: CGFloat(safeAreaBottom))
        return Int(inset.rounded())
    }

    /// The rows of the view left to show text in, at least one so the cursor has a place.
    static func visibleRows(viewFrame: CellRect, bottomInset: Int) -> Int {
        max(1, viewFrame.height - bottomInset)
    }
}
