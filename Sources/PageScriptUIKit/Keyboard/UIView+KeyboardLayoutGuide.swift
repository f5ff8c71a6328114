#if canImport(UIKit)
import UIKit

extension UIView {
    /// Pins a subview's bottom edge to the top of this view's keyboard layout guide, so the
    /// subview ends above a docked keyboard and at the bottom of the safe area otherwise.
    ///
    /// Use this for views whose frame may shrink: a toolbar, a form, a button row. A text or
    /// scroll view that keeps its frame and insets its content instead needs the notification
    /// path, ``TextViewKeyboardAvoider``.
    ///
    /// The guide keeps its default `followsUndockedKeyboard = false`: a floating or split iPad
    /// keyboard covers nothing a layout could move away from, which is what
    /// `KeyboardState` concludes for a floating keyboard too. With `usesBottomSafeArea`
    /// left on, the guide never drops below the safe area, so the subview clears the home
    /// indicator when no keyboard is up.
    ///
    /// ```swift
    /// view.addSubview(toolbar)
    /// view.pinBottomAboveKeyboard(toolbar)
    /// ```
    ///
    /// - Parameters:
    ///   - subview: A view inside this one.
    ///   - spacing: The gap between the subview's bottom and the keyboard's top.
    /// - Returns: The activated constraint, for changing `spacing` later.
    @discardableResult
    public func pinBottomAboveKeyboard(_ subview: UIView, spacing: CGFloat = 0) -> NSLayoutConstraint {
        let constraint = keyboardLayoutGuide.topAnchor.constraint(equalTo: subview.bottomAnchor, constant: spacing)
        constraint.isActive = true
        return constraint
    }
}
#endif
