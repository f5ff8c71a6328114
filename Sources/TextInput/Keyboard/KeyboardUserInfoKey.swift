/// A key of the `userInfo` dictionary that UIKit attaches to keyboard notifications.
///
/// The raw values are UIKit's raw key strings, so the portable core reads payloads posted by
/// UIKit on Apple platforms and payloads built by tests or simulators elsewhere. A
/// ``KeyboardEventError`` names the key that was missing or held the wrong type.
public enum KeyboardUserInfoKey: String, CaseIterable, Sendable, Hashable {
    /// The keyboard's frame before the change, in the screen's coordinate space
    /// (`UIResponder.keyboardFrameBeginUserInfoKey`, an `NSValue` holding a `CGRect`).
    case frameBegin = "UIKeyboardFrameBeginUserInfoKey"
    /// The keyboard's frame after the change, in the screen's coordinate space
    /// (`UIResponder.keyboardFrameEndUserInfoKey`, an `NSValue` holding a `CGRect`).
    case frameEnd = "UIKeyboardFrameEndUserInfoKey"
    /// The animation's duration in seconds, possibly zero
    /// (`UIResponder.keyboardAnimationDurationUserInfoKey`, an `NSNumber`).
    case animationDuration = "UIKeyboardAnimationDurationUserInfoKey"
    /// The animation curve's raw value (`UIResponder.keyboardAnimationCurveUserInfoKey`, an
    /// `NSNumber`); iOS sends 7, which no `UIView.AnimationCurve` case stands for.
    case animationCurve = "UIKeyboardAnimationCurveUserInfoKey"
    /// Whether the keyboard belongs to the current app (`UIResponder.keyboardIsLocalUserInfoKey`,
    /// an `NSNumber` holding a Bool); false when another app's keyboard is up, as in Split View.
    case isLocal = "UIKeyboardIsLocalUserInfoKey"
}
