#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Saves a view's own bottom inset when the keyboard first covers it and gives it back when the
/// keyboard stops covering it.
///
/// Resetting to zero on hide, as the common recipe does, throws away whatever inset the view had
/// for its own reasons (a toolbar, padding after the last line). The tracker keeps the inset from
/// before the keyboard, and keeps it only once: later frame changes while the keyboard is up
/// (QuickType, rotation) must not mistake the keyboard-adjusted inset for the original.
///
/// While the keyboard covers the view the applied inset is the larger of the original and the
/// keyboard's, because the keyboard covers the view's bottom edge and so already covers whatever
/// the original inset kept content away from.
///
/// ```swift
/// var tracker = KeyboardInsetTracker()
/// // For every keyboard state:
/// textView.contentInset.bottom = tracker.bottomInset(
///     applying: state.bottomInset(safeAreaBottom: view.safeAreaInsets.bottom),
///     currentBottomInset: textView.contentInset.bottom
/// )
/// ```
public struct KeyboardInsetTracker: Sendable, Hashable {
    /// The inset saved when the keyboard began to cover the view, or `nil` while it does not.
    public private(set) var originalBottomInset: CGFloat?

    /// Creates a tracker that has saved nothing yet.
    public init() {}

    /// Returns the bottom inset to apply now, saving or restoring the view's own inset on the way.
    ///
    /// - Parameters:
    ///   - keyboardInset: The keyboard's bottom inset for the view, from
    ///     ``KeyboardState/bottomInset(safeAreaBottom:)``; zero once it no longer covers the view.
    ///   - currentBottomInset: The view's bottom inset as it is now.
    /// - Returns: The larger of the saved inset and `keyboardInset` while the keyboard covers the
    ///   view; the saved inset when it has just stopped; `currentBottomInset` otherwise.
    public mutating func bottomInset(applying keyboardInset: CGFloat, currentBottomInset: CGFloat) -> CGFloat {
        if keyboardInset > 0 {
            let original = originalBottomInset ?? currentBottomInset
            originalBottomInset = original
            return max(original, keyboardInset)
        }
        guard let original = originalBottomInset else {
            return currentBottomInset
        }
        originalBottomInset = nil
        return original
    }
}
