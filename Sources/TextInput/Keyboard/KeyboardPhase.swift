import Foundation

/// The moment in the keyboard's life that a notification reports.
///
/// UIKit posts six keyboard notifications. Each phase's raw value is the notification's raw name,
/// which is also a valid `Notification.Name` on platforms without UIKit, so the portable core can
/// observe and post them without naming UIKit.
///
/// Height changes while the keyboard stays up (the QuickType bar, an emoji or language switch,
/// rotation, undocking) arrive only as ``willChangeFrame`` and ``didChangeFrame``: an observer that
/// listens to show and hide alone misses them, which is why ``KeyboardObserver`` listens to all six.
///
/// ```swift
/// let phase = KeyboardPhase(notificationName: notification.name)
/// ```
public enum KeyboardPhase: String, CaseIterable, Sendable, Hashable {
    /// The keyboard is about to appear (`UIResponder.keyboardWillShowNotification`).
    case willShow = "UIKeyboardWillShowNotification"
    /// The keyboard has appeared (`UIResponder.keyboardDidShowNotification`).
    case didShow = "UIKeyboardDidShowNotification"
    /// The keyboard is about to disappear (`UIResponder.keyboardWillHideNotification`).
    case willHide = "UIKeyboardWillHideNotification"
    /// The keyboard has disappeared (`UIResponder.keyboardDidHideNotification`).
    case didHide = "UIKeyboardDidHideNotification"
    /// The keyboard's frame is about to change (`UIResponder.keyboardWillChangeFrameNotification`).
    case willChangeFrame = "UIKeyboardWillChangeFrameNotification"
    /// The keyboard's frame has changed (`UIResponder.keyboardDidChangeFrameNotification`).
    case didChangeFrame = "UIKeyboardDidChangeFrameNotification"

    /// Creates the phase a notification name stands for, or `nil` for a name that is not one of
    /// the six keyboard notifications.
    ///
    /// - Parameter notificationName: The name of a posted notification.
    public init?(notificationName: Notification.Name) {
        self.init(rawValue: notificationName.rawValue)
    }

    /// The name UIKit posts this phase under.
    ///
    /// On Apple platforms it equals the matching `UIResponder` constant, so notifications posted
    /// by UIKit and by tests or simulators are observed the same way.
    public var notificationName: Notification.Name {
        Notification.Name(rawValue)
    }

    /// Whether the phase announces the keyboard going away (``willHide`` or ``didHide``).
    ///
    /// A hide phase does not by itself mean nothing is on screen: some iOS versions report the
    /// hardware keyboard's bar at the bottom of the screen in a hide notification. Visibility comes
    /// from the frame's overlap, see ``KeyboardState/isVisible``.
    public var isHide: Bool {
        self == .willHide || self == .didHide
    }

    /// Whether the phase is sent before the change, inside the animation block UIKit runs for it.
    ///
    /// Adjustments made while handling a *will* phase can use the event's duration and curve to
    /// move in step with the keyboard.
    public var isBeforeChange: Bool {
        switch self {
        case .willShow, .willHide, .willChangeFrame: true
        case .didShow, .didHide, .didChangeFrame: false
        }
    }
}
