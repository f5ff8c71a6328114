#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Pure geometry for keeping content clear of a keyboard, or of anything else that rises from
/// the bottom of a view.
///
/// Both functions are unit-free. On iOS they take points in the screen's coordinate space; a
/// terminal editor passes cells, with its output panel (a rectangle rising from the bottom of the
/// terminal) as the keyboard and a one-cell rectangle as the caret:
///
/// ```swift
/// let inset = KeyboardAvoidance.bottomInset(
///     keyboardFrame: CGRect(x: 0, y: 18, width: 80, height: 6),  // output panel, 6 rows
///     viewFrame: CGRect(x: 0, y: 0, width: 80, height: 24),      // the terminal
///     safeAreaBottom: 0
/// )                                                              // 6
/// let topRow = KeyboardAvoidance.contentOffset(
///     revealing: CGRect(x: column, y: line, width: 1, height: 1),
///     currentOffset: topRow, visibleHeight: 24, bottomInset: inset
/// )
/// ```
public enum KeyboardAvoidance {
    /// How far an edge may miss another and still count as touching it.
    ///
    /// Converting frames between coordinate spaces leaves fractions of a point; half a unit absorbs
    /// them at any scale, while a floating keyboard sits far further from the bottom edge than that.
    static let edgeTolerance: CGFloat = 0.5

    /// The bottom content inset that keeps a view's content clear of a keyboard.
    ///
    /// Only the part of the keyboard that overlaps the view counts, so a view in a Split View or
    /// Stage Manager window or a form sheet is inset by what actually covers it, not by the
    /// keyboard's height. A keyboard whose bottom edge is above the view's bottom edge (a floating
    /// or split keyboard) leaves no strip at the bottom to inset against, so the inset is zero.
    /// The safe area is subtracted because the system adds it to the content inset already, and the
    /// result is clamped at zero: a bar shorter than the home indicator needs no inset.
    ///
    /// This function sees only the view. A floating keyboard that hangs below the bottom of a view
    /// that does not reach the screen's bottom looks docked to it; ``KeyboardState`` knows the
    /// screen and returns zero in that case too.
    ///
    /// ```swift
    /// // A notch phone: a 336 pt keyboard over a full-screen view with a 34 pt home indicator.
    /// KeyboardAvoidance.bottomInset(
    ///     keyboardFrame: CGRect(x: 0, y: 508, width: 390, height: 336),
    ///     viewFrame: CGRect(x: 0, y: 0, width: 390, height: 844),
    ///     safeAreaBottom: 34
    /// )  // 302
    /// ```
    ///
    /// - Parameters:
    ///   - keyboardFrame: The keyboard's end frame, in the screen's coordinate space.
    ///   - viewFrame: The view's frame, in the same coordinate space.
    ///   - safeAreaBottom: The view's bottom safe-area inset.
    /// - Returns: The inset to give the view's content at the bottom, never negative.
    public static func bottomInset(keyboardFrame: CGRect, viewFrame: CGRect, safeAreaBottom: CGFloat) -> CGFloat {
        let overlap = keyboardFrame.intersection(viewFrame)
        guard !overlap.isEmpty, keyboardFrame.maxY >= viewFrame.maxY - edgeTolerance else {
            return 0
        }
        return max(0, overlap.height - safeAreaBottom)
    }

    /// The vertical content offset that brings a caret into the part of a scrolling view that is
    /// neither under its top inset nor under the keyboard, scrolling as little as possible.
    ///
    /// Pass the caret, that is the rectangle at the selection's end, not the rectangle of the
    /// selection: a selection taller than the visible area cannot be revealed whole, and revealing
    /// its bounding box scrolls to whichever edge is nearer, leaving the caret out of sight. Call it
    /// after the new inset has been laid out, with that inset, so the caret lands above the keyboard
    /// rather than under it.
    ///
    /// The visible band is `currentOffset + topInset ..< currentOffset + visibleHeight - bottomInset`
    /// in content coordinates. A caret already inside it leaves the offset unchanged; one above it
    /// is brought to its top edge and one below it to its bottom edge. When the caret is taller
    /// than the band, or no band is left, its top is aligned with the band's top. The result stays
    /// within the scrollable range whenever the caret lies within the content.
    ///
    /// ```swift
    /// // A caret at y 1780 in a 600 pt tall text view scrolled to 0, with 300 pt of keyboard.
    /// KeyboardAvoidance.contentOffset(
    ///     revealing: CGRect(x: 12, y: 1780, width: 2, height: 20),
    ///     currentOffset: 0, visibleHeight: 600, bottomInset: 300
    /// )  // 1500: the caret's bottom meets the keyboard's top
    /// ```
    ///
    /// - Parameters:
    ///   - caret: The caret's rectangle in content coordinates (on iOS, `caretRect(for:)` of the
    ///     selection's end in a text view, which is already in content coordinates).
    ///   - currentOffset: The current vertical content offset.
    ///   - visibleHeight: The height of the scrolling view's bounds.
    ///   - bottomInset: How much of the bounds' bottom is covered, by the keyboard or a panel.
    ///   - topInset: How much of the bounds' top is covered, by a navigation bar for instance.
    /// - Returns: The new vertical content offset.
    public static func contentOffset(
        revealing caret: CGRect,
        currentOffset: CGFloat,
        visibleHeight: CGFloat,
        bottomInset: CGFloat,
        topInset: CGFloat = 0
    ) -> CGFloat {
        guard !caret.isNull, caret.minY.isFinite, caret.maxY.isFinite else {
            return currentOffset
        }
        let bandHeight = visibleHeight - topInset - bottomInset
        let alignedToTop = caret.minY - topInset
        if caret.height >= bandHeight || caret.minY < currentOffset + topInset {
            return alignedToTop
        }
        let bandBottom = currentOffset + visibleHeight - bottomInset
        if caret.maxY > bandBottom {
            return caret.maxY - (visibleHeight - bottomInset)
        }
        return currentOffset
    }
}
