#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import TextInput

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
